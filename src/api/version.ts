// The version of the published API description (docs/api-contract.md §11), reported by /v1/health, the snapshot
// manifest and the SDK.
export const API_VERSION = '1.5.2';

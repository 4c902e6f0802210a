// The nginx front (docs/cdn.md): a complete configuration that serves a snapshot's prerendered
// pages straight from its static files and sends everything else to the origin servers.
//
// A request is served from disk only when nginx can name its canonical page file, with the same
// rules as the origin's canonical URLs (src/api/query.ts canonicalUrl, paging.ts canonicalPage):
// known parameters in name order, defaults filled (limit, sort), unknown ones dropped. Anything it
// cannot vouch for goes to the origin, which answers with the same bytes: a value it does not
// recognise, a parameter given twice or empty, a percent-encoded or upper-case parameter name,
// cursor with offset, any method but GET and HEAD. Files carry the origin's headers: the same
// ETags (their mtimes are the content stamps), Cache-Control, CORS, Link and X-Robots-Tag maps.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEMS, type ProblemSlug } from '../api/problems.ts';
import { ENDPOINTS } from '../api/routes.ts';
import { z } from 'zod';
import type { Endpoint } from '../api/endpoint.ts';
import { KEY_PATTERN } from '../catalogue/records.ts';
import { FILE_HEADERS, NGINX_MAPS, STATIC_DIR } from '../snapshot/static-files.ts';

/** Debian's brotli_static module (libnginx-mod-http-brotli-static), loaded when installed. */
export const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/** The brotli_static module's path when it is installed here. */
export const installedBrotliModule = (): string | undefined => (existsSync(BROTLI_MODULE) ? BROTLI_MODULE : undefined);

/** Makes the folders nginx writes under its prefix (temporary files); pid and logs go beside them. */
export function preparePrefix(prefix: string): void {
  for (const folder of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, 'tmp', folder), { recursive: true });
}

export interface NginxOptions {
  readonly listen: number;
  /** origin servers, `http://host:port` */
  readonly origins: readonly string[];
  /** the snapshot to serve (its real path, holding `static/`) */
  readonly snapshotDir: string;
  /** where pid, logs and temporary files go (nginx -p) */
  readonly prefix: string;
  /** PUBLIC_BASE_URL, for the problem nginx itself answers to a target it cannot parse */
  readonly publicBaseUrl: string;
  /** the brotli_static module to load, when installed */
  readonly brotliModule?: string | undefined;
  readonly workers?: number;
}

/** How nginx turns one query parameter into its part of the canonical query (`name=value&`). */
interface ParameterRule {
  /** the part when the parameter is absent (its default filled in, as canonical URLs write it) */
  readonly absent: string;
  /** values the map passes on as `name=value&`; anything else is `!` (not servable) */
  readonly valid?: string;
  /** values the canonical URL leaves out (offset=0) */
  readonly dropped?: readonly string[];
}

type Json = Record<string, any>;

const enumPattern = (values: readonly unknown[]) => `~^(${values.join('|')})$`;
/** Every integer from min to max as the origin's canonical URLs write it: no sign, no leading zero. */
const integerPattern = (min: number, max: number) => `~^(${Array.from({ length: max - min + 1 }, (_, i) => min + i).join('|')})$`;

/**
 * What is not in the parameters' schemas: which values can name a page file. Everything else (enum
 * values, integer bounds, defaults, the cursor's pattern) comes from the endpoint's own query
 * schema, as the API description does (src/openapi/build-document.ts).
 */
const PAGE_FILE_RULES: Readonly<Record<string, ParameterRule>> = {
  // a page at an offset is canonical only as offset 0 (left out); others are answered by the origin
  offset: { absent: '', dropped: ['0'] },
  // pages exist per category id, a catalogue key
  category: { absent: '', valid: `~${KEY_PATTERN.source}` },
  // never prerendered (src/snapshot/plan-pages.ts): their presence sends the request to the origin
  creator: { absent: '' },
  q: { absent: '' },
};

/** The rule of one parameter from its JSON Schema (input side) and default, or undefined when none can be derived. */
function derivedRule(name: string, schema: Json, defaultValue: unknown): ParameterRule | undefined {
  const absent = defaultValue === undefined ? '' : `${name}=${String(defaultValue)}&`;
  if (Array.isArray(schema['enum'])) return { absent, valid: enumPattern(schema['enum']) };
  if (schema['type'] === 'integer' && schema['maximum'] - schema['minimum'] <= 10_000) return { absent, valid: integerPattern(schema['minimum'], schema['maximum']) };
  if (typeof schema['pattern'] === 'string' && schema['pattern'].startsWith('^')) return { absent, valid: `~${schema['pattern']}` };
  return undefined;
}

/** The canonical rule of every query parameter of the servable routes, one per name (nginx maps are global). */
function parameterRules(endpoints: readonly Endpoint<any>[]): Map<string, ParameterRule> {
  const rules = new Map<string, ParameterRule>();
  for (const endpoint of endpoints) {
    const shape = endpoint.query.shape as Record<string, { meta(): Json | undefined }>;
    const { properties = {} } = z.toJSONSchema(endpoint.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Json> };
    for (const [name, schema] of Object.entries(properties)) {
      const rule = PAGE_FILE_RULES[name] ?? derivedRule(name, schema, schema['x-default'] ?? shape[name]?.meta()?.['x-default']);
      if (!rule) throw new Error(`nginx-config: no canonical rule for the query parameter ${name} of ${endpoint.path}; add one to src/cdn/nginx-config.ts`);
      const known = rules.get(name);
      if (known && JSON.stringify(known) !== JSON.stringify(rule)) throw new Error(`nginx-config: ${name} means different things on two servable routes; one nginx map cannot say both`);
      rules.set(name, rule);
    }
  }
  return rules;
}

/**
 * The routes nginx may serve from files, in route-table order: snapshot answers under /v1 that the
 * build prerenders, that is every such route but those with a required parameter (batch: its
 * answers are never planned, src/snapshot/plan-pages.ts).
 */
function servableRoutes() {
  for (const endpoint of ENDPOINTS) {
    if ((endpoint.path.match(/:\w+/g) ?? []).length > 1) throw new Error(`nginx-config: ${endpoint.path} has two id segments; $vp_path escapes one`);
  }
  return ENDPOINTS.map((endpoint) => {
    const required = (z.toJSONSchema(endpoint.query, { io: 'input', unrepresentable: 'any' }) as { required?: string[] }).required ?? [];
    return {
      endpoint,
      regex: `~^${endpoint.path.replace(/\./g, '\\.').replace(/:\w+/g, '[^/]+')}$`,
      servable: endpoint.cache === 'snapshot' && endpoint.path.startsWith('/v1/') && required.length === 0,
      parameters: Object.keys(endpoint.query.shape).sort(),
    };
  });
}

/** An internal location answering a problem document nginx writes itself, with CORS and `headers`. */
function problemLocation(path: string, slug: ProblemSlug, detail: string, baseUrl: string, headers: readonly string[]): string[] {
  const { status, title } = PROBLEMS[slug];
  const body = JSON.stringify({ type: `${baseUrl.replace(/\/+$/, '')}/problems/${slug}`, title, status, detail, instance: '$vp_instance' });
  return [
    `    location = ${path} {`,
    '      internal;',
    '      default_type "application/problem+json; charset=utf-8";',
    ...Object.entries(FILE_HEADERS).filter(([name]) => name.startsWith('Access-Control')).map(([name, value]) => `      add_header ${name} "${value}" always;`),
    ...headers.map((header) => `      add_header ${header} always;`),
    `      return ${status} '${body}';`,
    '    }',
    '',
  ];
}

/** A servable route's entry, from servableRoutes. */
type Route = ReturnType<typeof servableRoutes>[number];

/**
 * The whole configuration: the main context, then the http context's settings, the origins, the
 * maps that name a request's page file or send it to the origin, and the server. Each part is
 * written by a function named for it, below.
 */
export function nginxConfig(options: NginxOptions): string {
  const routes = servableRoutes();
  const rules = parameterRules(routes.filter((r) => r.servable).map((r) => r.endpoint));
  const root = `${options.snapshotDir}/${STATIC_DIR}`;
  return [
    ...writeMainContext(options),
    'http {',
    ...writeHttpSettings(options.prefix),
    '',
    ...writeUpstream(options.origins),
    '',
    ...writeRouteMap(routes),
    '',
    ...writeParameterMaps(rules),
    '',
    ...writeGuardMap([...rules.keys()].sort()),
    '',
    ...writePageFileMaps(routes),
    ...writeInstanceMap(),
    ...writeBypassMaps(),
    '',
    ...writePageHeaderMaps(root),
    '',
    ...writeServer(options, root),
    '}',
    '',
  ].join('\n');
}

/** The main context: modules, workers, pid and error log under the prefix, file and connection limits. */
function writeMainContext(options: NginxOptions): string[] {
  return [
    ...(options.brotliModule ? [`load_module ${options.brotliModule};`] : []),
    `worker_processes ${options.workers ?? 1};`,
    'daemon on;',
    `pid ${options.prefix}/nginx.pid;`,
    `error_log ${options.prefix}/error.log warn;`,
    // an ordinary user's open-file limit is often 1,024: ask for more, and keep the caches below it
    'worker_rlimit_nofile 65536;',
    'events { worker_connections 2048; }',
  ];
}

/** The http context's settings: logging, transfer, file cache, header buffers, compression, temporary paths, types. */
function writeHttpSettings(prefix: string): string[] {
  return [
    '  access_log off;',
    '  server_tokens off;',
    '  sendfile on; tcp_nopush on; tcp_nodelay on;',
    '  keepalive_timeout 65; keepalive_requests 100000;',
    '  merge_slashes off;',
    '  # the snapshot directory never changes (a rebuild writes another one): open files, and the',
    '  # variants that do not exist, can be cached for as long as nginx runs on it',
    '  open_file_cache max=40000 inactive=600s; open_file_cache_valid 600s; open_file_cache_errors on;',
    '  # request bodies: the API reads none, and nginx buffers one before passing it on; a larger one',
    '  # gets the body-too-large problem (the server\'s error_page 413)',
    '  client_max_body_size 1m;',
    '  # heads as long as the origin takes (node:http: 16 KB)',
    '  large_client_header_buffers 4 16k;',
    '  # compressed files for every client that accepts them, as the origin does: behind a CDN (Via), over HTTP/1.0',
    '  gzip_proxied any; gzip_http_version 1.0;',
    '  map_hash_bucket_size 256; map_hash_max_size 1048576;',
    `  client_body_temp_path ${prefix}/tmp/body; proxy_temp_path ${prefix}/tmp/proxy;`,
    `  fastcgi_temp_path ${prefix}/tmp/fastcgi; uwsgi_temp_path ${prefix}/tmp/uwsgi; scgi_temp_path ${prefix}/tmp/scgi;`,
    '  types { application/json json; }',
    '  default_type application/octet-stream;',
  ];
}

/** The origin servers, with idle connections kept open. */
function writeUpstream(origins: readonly string[]): string[] {
  return [
    '  upstream vp_origins {',
    ...origins.map((origin) => `    server ${new URL(origin).host};`),
    '    keepalive 64;',
    '  }',
  ];
}

/** $vp_route: the name of the servable route a path is, or "" for the origin. */
function writeRouteMap(routes: readonly Route[]): string[] {
  return [
    '  # which route a path is, in the route table\'s order (the first match wins)',
    '  map $uri $vp_route {',
    ...routes.map((r) => `    "${r.regex}" ${r.servable ? r.endpoint.name : '""'};`),
    '    default "";',
    '  }',
  ];
}

/** $vp_<name> for each known parameter: its part of the canonical query, or "!" when only the origin can answer. */
function writeParameterMaps(rules: ReadonlyMap<string, ParameterRule>): string[] {
  return [
    '  # each known parameter\'s part of the canonical query; "!" when only the origin can answer',
    ...[...rules.keys()].sort().flatMap((name) => {
      const rule = rules.get(name)!;
      return [
        `  map $arg_${name} $vp_${name} {`,
        `    "" "${rule.absent}";`,
        ...(rule.valid ? [`    "${rule.valid}" "${name}=$arg_${name}&";`] : []),
        ...(rule.dropped ?? []).map((value) => `    "${value}" "";`),
        '    default "!";',
        '  }',
      ];
    }),
  ];
}

/** $vp_guard: 1 for a query string only the origin can judge, whatever its parameters' values. */
function writeGuardMap(known: readonly string[]): string[] {
  const names = known.join('|');
  return [
    '  # queries only the origin can judge: a name percent-encoded or not in lower case, a known',
    '  # parameter empty or given twice, cursor with offset',
    '  map $args $vp_guard {',
    '    default 0;',
    '    "~(^|&)[^=&]*[%A-Z+][^=&]*(=|&|$)" 1;',
    `    "~(^|&)(${names})=?(&|$)" 1;`,
    `    "~(^|&)(${names})(=[^&]*)?&(.*&)?\\2(=|&|$)" 1;`,
    '    "~(^|&)offset(=|&|$).*(^|&)cursor(=|&|$)" 1;',
    '    "~(^|&)cursor(=|&|$).*(^|&)offset(=|&|$)" 1;',
    '  }',
  ];
}

/** $vp_page: the request's page file in its canonical form, or "" when there is none to serve. */
function writePageFileMaps(routes: readonly Route[]): string[] {
  return [
    '  # the path as page files name it: an id segment starting with a dot gets a ~ before it',
    '  # (src/snapshot/layout.ts pageFile; a servable route has one id segment at most)',
    '  map $uri $vp_path {',
    '    "~^(?<vp_head>.*/)(?<vp_tail>\\..*)$" "$vp_head~$vp_tail";',
    '    default $uri;',
    '  }',
    '  # the page file of the request, in its canonical form',
    '  map $vp_route $vp_file {',
    ...routes.filter((r) => r.servable).map((r) => `    ${r.endpoint.name} "${r.parameters.length === 0 ? '/pages$vp_path.json' : `/pages$vp_path@${r.parameters.map((p) => `$vp_${p}`).join('')}`}";`),
    '    default "";',
    '  }',
    '  map $vp_file $vp_page {',
    '    "~!" "";',
    '    "~^(?<vp_stem>.*)&$" "$vp_stem.json";',
    '    "~\\.json$" $vp_file;',
    '    default "";',
    '  }',
  ];
}

/** $vp_instance: the `instance` of the problems nginx answers itself. */
function writeInstanceMap(): string[] {
  return [
    '  # the request target as the instance of a problem: as it came, unless JSON would need escapes',
    '  map $request $vp_instance {',
    '    "~^[A-Z]+ (?<vp_target>[^\\x00-\\x20\\x22\\x5c\\x7f-\\xff]{1,2000})( |$)" $vp_target;',
    '    default "(a request target that cannot be parsed)";',
    '  }',
  ];
}

/** $vp_bypass: 0 only for a GET or HEAD that nginx answers exactly as the origin would, from a page file. */
function writeBypassMaps(): string[] {
  return [
    '  # an Accept-Encoding with q-values, * or x-gzip: the origin weighs them (nginx would take br if it is there)',
    '  map $http_accept_encoding $vp_weighed {',
    '    "~(q=|\\*|x-gzip)" 1;',
    '    default 0;',
    '  }',
    '  # a path as sent that nginx would read differently from the origin (which matches it as sent and',
    '  # decodes only inside a segment): percent-encoding, dot segments, backslashes',
    '  map $request_uri $vp_rawpath {',
    '    "~^[^?]*(%|/\\.\\.?(/|\\?|$)|\\x5c)" 1;',
    '    default 0;',
    '  }',
    '  # conditions nginx would judge itself and the origin ignores (If-None-Match they judge alike)',
    '  map "$http_if_match$http_if_unmodified_since$http_if_modified_since$http_if_range$http_range" $vp_conditional {',
    '    "" 0;',
    '    default 1;',
    '  }',
    '  map "$request_method:$vp_guard$vp_weighed$vp_rawpath$vp_conditional:$vp_page" $vp_bypass {',
    '    "~^(GET|HEAD):0000:/" 0;',
    '    default 1;',
    '  }',
  ];
}

/** $vp_link and $vp_noindex: the headers that vary per page, from the snapshot's map files. */
function writePageHeaderMaps(root: string): string[] {
  return [
    '  # headers that vary per page, from the snapshot',
    `  map $vp_page $vp_link { default ""; include ${root}/${NGINX_MAPS.link}; }`,
    `  map $vp_page $vp_noindex { default ""; include ${root}/${NGINX_MAPS.noindex}; }`,
  ];
}

/** The server: page files from disk, the problems nginx answers itself, and the origin for the rest. */
function writeServer(options: NginxOptions, root: string): string[] {
  return [
    '  server {',
    `    listen ${options.listen};`,
    '    # A target nginx cannot parse (bad percent-encoding, a NUL) never reaches the configuration,',
    '    # so cannot go to the origin: nginx answers the not-found problem the origin would.',
    '    error_page 400 =404 /.vp-unparseable;',
    '    # a request line or head over large_client_header_buffers: the problem the origin gives a head',
    '    # over its 16 KB (nginx would answer 414 or 400 with an HTML page)',
    '    error_page 414 494 =431 /.vp-head-too-large;',
    '    # a body over client_max_body_size: a problem, not nginx\'s HTML page (nginx reads and drops the body)',
    '    error_page 413 /.vp-body-too-large;',
    '    # a request sent to the origin by error_page 418 (location /) may meet another error there',
    '    recursive_error_pages on;',
    '',
    ...writePageFileLocation(root, Boolean(options.brotliModule)),
    '',
    ...problemLocation('/.vp-unparseable', 'not-found', 'The request target is not a valid path.', options.publicBaseUrl,
      ['Cache-Control "public, max-age=60"', 'X-Front-Problem unparseable']),
    ...problemLocation('/.vp-body-too-large', 'body-too-large', 'The request body is larger than 1 MB; this API reads no request body.', options.publicBaseUrl, []),
    ...problemLocation('/.vp-head-too-large', 'headers-too-large', 'The request head is larger than 16 KB.', options.publicBaseUrl, []),
    ...problemLocation('/.vp-unavailable', 'service-unavailable', 'No origin server answered: retry shortly.', options.publicBaseUrl, ['Retry-After 5']),
    ...writeOriginLocation(),
    '  }',
  ];
}

/** `location /`: the page file with its precompressed variants and the origin's headers, or the origin. */
function writePageFileLocation(root: string, brotli: boolean): string[] {
  return [
    '    location / {',
    '      error_page 418 = @origin;',
    '      error_page 413 /.vp-body-too-large;',
    '      if ($vp_bypass) { return 418; }',
    `      root ${root};`,
    '      try_files $vp_page @origin;',
    '      etag on;',
    '      max_ranges 0;',
    '      charset utf-8; charset_types application/json;',
    '      if_modified_since off;',
    '      gzip_static on;',
    '      gzip_vary on;',
    ...(brotli ? ['      brotli_static on;'] : []),
    ...Object.entries(FILE_HEADERS).filter(([name]) => name !== 'Content-Type').map(([name, value]) => `      add_header ${name} "${value}"${name.startsWith('Access-Control') ? ' always' : ''};`),
    '      add_header Link $vp_link;',
    '      add_header X-Robots-Tag $vp_noindex;',
    '      add_header Last-Modified "";',
    '    }',
  ];
}

/** The directives of a location that passes a request to the origins. */
const ORIGIN_PROXY = [
  '      proxy_pass http://vp_origins;',
  '      proxy_http_version 1.1;',
  '      proxy_set_header Connection "";',
  '      proxy_set_header Host $host;',
  '      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  '      proxy_set_header X-Forwarded-Proto $scheme;',
  '      proxy_pass_request_headers on;',
  '      proxy_buffering on;',
  '      proxy_next_upstream error timeout http_502 http_503 non_idempotent;',
  '      # No origin answers at all: the problem the origin gives while it has no snapshot, not',
  "      # nginx's HTML error page. Declared here, where the error happens (a location that declares",
  '      # error_page, as `location /` does, inherits none; most requests come here by its',
  '      # error_page 418, hence recursive_error_pages on the server).',
  '      error_page 502 504 =503 /.vp-unavailable;',
  '      # A chunked body (no length to refuse it by before the location) found over',
  '      # client_max_body_size only as it is read for the origin: the problem, not the HTML 413.',
  '      error_page 413 /.vp-body-too-large;',
];

/** `location @origin`: the request as it came, over kept-alive connections, retried on another origin when one fails. */
function writeOriginLocation(): string[] {
  return [
    '    location @origin {',
    ...ORIGIN_PROXY,
    '    }',
  ];
}

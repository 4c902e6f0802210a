/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** the snapshot's model and info, passed in by our node:http server (src/server/http-server.ts) */
    context: import('./api/endpoint.ts').Context;
    /** a Set-Cookie value with a site pass for this client, for the site's HTML pages (src/server/site-pass.ts) */
    sitePass?: () => string | undefined;
    /** the problem an HTML error page shows (src/pages/error.astro, src/site/negotiate-errors.ts) */
    problem?: import('./site/negotiate-errors.ts').PageProblem;
  }
}

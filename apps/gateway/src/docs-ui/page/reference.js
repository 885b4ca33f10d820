// The API reference at /docs (apps/gateway/src/docs-ui/docs-ui.ts): Swagger UI, served from this
// host, drawing the OpenAPI document this host serves at /openapi.json. A file, not an inline
// script, so the page's Content-Security-Policy allows scripts from this origin only.
// - validatorUrl null: no badge fetched from an outside validator (nothing leaves the machine);
// - no "Try it out" (supportedSubmitMethods []): the page is a reference to read; secret keys
//   belong on servers only, and the control plane refuses one sent with an Origin header.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  validatorUrl: null,
  supportedSubmitMethods: [],
});

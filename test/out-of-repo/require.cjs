// A CommonJS program that require()s the ES-module packages (Node >= 20.19 or >= 22.12 loads them
// synchronously; older Node throws ERR_REQUIRE_ESM). Prints what it got, as JSON.
try {
  const server = require('@rtm/server');
  const client = require('@rtm/client');
  console.log(JSON.stringify({ ok: true, server: Object.keys(server).sort(), client: Object.keys(client).sort() }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, code: error.code }));
}

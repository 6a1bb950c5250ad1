/**
 * The module rules of src/ about imports, checked by `npm run check` (dependency-cruiser). The
 * one about what a module's entry exports (no table, column or SQL) is a type tsc checks:
 * test/architecture/public-entries.ts. See docs/architecture.md.
 * test/architecture/dependency-rules.test.ts shows each rule failing on a deliberate violation.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'An import circle makes start-up order and module boundaries fragile. Break it with a registry (events subscribers, profile deletion steps, account move checks) or by moving the shared piece down.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'module-through-its-entry',
      comment:
        "A module uses another module only through that module's public entry (src/modules/<name>/index.ts): its tables, services and routes are its own.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: '^src/modules/[^/]+/tables[.]ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index[.]ts$'] },
    },
    {
      name: 'tables-reference-only-columns',
      comment:
        "A module's tables may reference another module's rows (foreign keys) through that module's columns.ts, and nothing else of it.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/tables[.]ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/columns[.]ts$'] },
    },
    {
      name: 'outside-through-module-entry',
      comment: 'Code outside src/modules/ uses a module only through its public entry, index.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index[.]ts$' },
    },
    {
      name: 'lower-layers-reach-no-module',
      comment:
        'platforms/, http/, db/, outbound/, sandbox/, jobs/ and metrics/ are what modules are built on: they reach no module, not even through another file (pass what they need in as functions instead). Code outside src/modules/ enters a module only through its index.ts (outside-through-module-entry), so reaching no index.ts is reaching no module.',
      severity: 'error',
      from: { path: '^src/(platforms|http|db|outbound|sandbox|jobs|metrics)/' },
      to: { path: '^src/modules/[^/]+/index[.]ts$', reachable: true },
    },
    {
      name: 'sandbox-imitates-the-docs',
      comment:
        "sandbox/ imitates each platform from that platform's documentation, never from the adapters: it imports nothing of platforms/ (type-only imports included). Had it reused an adapter's code (a count, a parser, a list), a wrong belief in the adapter would be the sandbox's too, and no test would fail on it.",
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/platforms/' },
    },
    {
      name: 'web-renders-pages-only',
      comment:
        "web/ renders what a browser opens: the hosted connect pages (the connect module's flow), the hosted approval page (the posts module's approval), the members' sign-in pages (the members module's links), the report links' pages (the reports module's) and the dashboard's shell. What a platform or a client calls to change data (a platform's notice, an API route) belongs to the module that owns the data, registered from app.ts.",
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/(connect|posts|members|reports)/index[.]ts$' },
    },
    {
      name: 'pages-escape-by-rendering',
      comment:
        "Nothing in src/ escapes HTML by hand: a hosted page is Preact elements, rendered by web/page.tsx with preact-render-to-string, which escapes every text and attribute value. Markup built from strings needs an escape for each value, and one forgotten is enough for another's text to run on the page.",
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '(^|/)node_modules/(escape-html|html-escaper|escape-goat|he|lodash[.]escape)/' },
    },
    {
      name: 'mcp-through-the-api',
      comment:
        "mcp/ is the MCP server: each tool is an API operation, called as an API request with the caller's key, so the key's scope, validation, idempotency and rate limit hold for agents exactly as for any client. It reaches no module, not even through another file: what it knows of the API is the OpenAPI document.",
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/modules/[^/]+/index[.]ts$', reachable: true },
    },
    {
      name: 'client-stands-alone',
      comment:
        "src/client/ ships to users as switchboard/client, to run wherever fetch does (Node, browsers): it imports its own files and openapi-fetch, nothing of the service (the rest of src/) and no Node built-in. What it knows of the API comes from the OpenAPI document, through its generated types.",
      severity: 'error',
      from: { path: '^src/client/' },
      to: { pathNot: ['^src/client/', '(^|/)node_modules/openapi-fetch/'] },
    },
    {
      name: 'dashboard-through-the-client',
      comment:
        "dashboard/ is a client of the /v1 API like any other, signed in with a session cookie: of src/ it imports only the typed client (src/client/, which itself imports nothing else of src/: client-stands-alone), for the types generated from the OpenAPI document, the reading of the API's error shape and paginate. The service's code stays out of the browser's bundle, and what the dashboard knows of the API is the OpenAPI document.",
      severity: 'error',
      from: { path: '^dashboard/' },
      to: { path: '^src/', pathNot: '^src/client/' },
    },
    {
      name: 'resolvable',
      comment: 'An import that resolves to nothing would hide a dependency from these rules.',
      severity: 'error',
      from: { path: '^(src|dashboard)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript compiler API yet; swc parses the sources (type-only imports included).
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      exportsFields: ['exports'],
      // As Node resolves the service's own ESM imports.
      conditionNames: ['import', 'node', 'default'],
    },
  },
};

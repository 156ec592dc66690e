// Bundles the agent into one file (dist/fabric-agent.mjs) that runs with a plain `node`, no
// install: this is what the server offers for download from the Add Node dialog.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/fabric-agent.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: false,
  legalComments: 'none',
  banner: {
    js: [
      "import { createRequire as __fabricCreateRequire } from 'node:module';",
      'const require = __fabricCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  logLevel: 'warning',
});

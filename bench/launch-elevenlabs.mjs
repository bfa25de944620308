// The ElevenLabs widget for a side-by-side row of the launch benchmark (`npm run bench:launch -- --elevenlabs`).
//
// Its package (@elevenlabs/convai-widget-embed, MIT, one IIFE: dist/index.js) is fetched at run time with `npm pack`
// into a temporary folder, never into the project's dependencies. The widget reads its configuration from a fixed
// host (https://api.us.elevenlabs.io for the default `server-location`, `/v1/convai/agents/{id}/widget`, the same
// path and shape as the reference service's), so the benchmark answers that host itself: Chromium maps it to a local
// HTTPS server (--host-resolver-rules, a throwaway self-signed certificate, certificate errors ignored in the
// benchmark's contexts) that runs the same reference service, so both widgets read the same agent's configuration.
// Mapping the host, rather than Playwright's page.route, keeps the browser's HTTP cache on (routing turns it off,
// which would make the warm visit a cold one) and keeps the network events real. Every other host resolves to
// nothing: the widget's Google Fonts stylesheet (@import of Inter) and its orb's texture on storage.googleapis.com fail
// at once instead of loading, so its bytes here are a little below a real visit's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ELEVENLABS_PACKAGE = '@elevenlabs/convai-widget-embed';
/** The API host of the widget's default server-location ('us'). */
export const ELEVENLABS_API_HOST = 'api.us.elevenlabs.io';

/**
 * Fetches the package (`version`: an npm version or tag) into a temporary folder and makes a certificate for the API
 * host. Returns `{version, distDir, tls: {key, cert}, cleanup()}`.
 * @param {string} [version]
 */
export function prepareElevenLabs(version = 'latest') {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-launch-elevenlabs-'));
  try {
    const out = execFileSync('npm', ['pack', `${ELEVENLABS_PACKAGE}@${version}`, '--pack-destination', dir, '--silent'], {
      cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000,
    });
    const tarball = out.trim().split('\n').pop() || readdirSync(dir).find((f) => f.endsWith('.tgz'));
    execFileSync('tar', ['xzf', path.join(dir, tarball), '-C', dir]);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package', 'package.json'), 'utf8'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2',
      '-subj', `/CN=${ELEVENLABS_API_HOST}`, '-addext', `subjectAltName=DNS:${ELEVENLABS_API_HOST}`,
    ], { stdio: 'ignore', timeout: 60_000 });
    return {
      version: pkg.version,
      distDir: path.join(dir, 'package', 'dist'),
      script: 'index.js',
      tls: { key: readFileSync(key), cert: readFileSync(cert) },
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not prepare ${ELEVENLABS_PACKAGE}@${version} (npm pack, tar, openssl): ${error.message}`);
  }
}

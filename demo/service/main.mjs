#!/usr/bin/env node
// Runs the reference Voice Agent Service: `node demo/service/main.mjs`
// Environment: PORT (default 8787), HOST (default 127.0.0.1), SERVICE_API_KEY (optional fixed dev key).
import { startService } from './service.mjs';

const port = Number.parseInt(process.env.PORT ?? '8787', 10);
const host = process.env.HOST || '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Invalid PORT: ${process.env.PORT}`);
  process.exit(1);
}

const running = await startService({ port, host, apiKey: process.env.SERVICE_API_KEY || undefined });
console.log(`Voice Agent Service listening on ${running.url}`);
console.log(`Dev API key (header x-api-key): ${running.apiKey}`);

let stopping = false;
/** @param {NodeJS.Signals} signal */
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`Stopping (${signal})...`);
  await running.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

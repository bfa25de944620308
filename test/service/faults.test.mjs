// Tests of the fault switches of the reference service (`PUT/DELETE /v1/dev/faults`, demo/service/faults.mjs).
// Run: node --test test/service/
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { startService } from '../../demo/service/service.mjs';
import { GARBAGE_FRAMES } from '../../demo/service/faults.mjs';
import { echoReply } from '../../demo/service/script.mjs';

/** @type {Awaited<ReturnType<typeof startService>>} */
let running;
let base = '';
let key = '';

before(async () => {
  running = await startService({ port: 0, log: () => {}, replyDelayMs: 1, pingIntervalMs: 40 });
  base = running.url;
  key = running.apiKey;
});

after(async () => {
  await running.close();
});

afterEach(async () => {
  await faults('DELETE');
});

/** @param {'GET' | 'PUT' | 'DELETE'} method @param {unknown} [body] @param {{auth?: boolean, url?: string}} [options] */
async function faults(method, body, { auth = true, url = base } = {}) {
  /** @type {Record<string, string>} */
  const headers = auth ? { 'x-api-key': key } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}/v1/dev/faults`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

/** @param {string} agentId @param {RequestInit} [init] */
async function readWidget(agentId, init = {}, url = base) {
  const response = await fetch(`${url}/v1/convai/agents/${agentId}/widget`, init);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, at most 2 s. @param {() => unknown} check */
async function until(check) {
  const end = Date.now() + 2000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(5);
  }
}

/** A conversation socket that keeps every frame as received (garbage included) and answers pings. */
class RawClient {
  /** @param {string} agentId */
  constructor(agentId, url = base) {
    this.ws = new WebSocket(`${url.replace(/^http:/, 'ws:')}/v1/voiceai/conversation?agent_id=${agentId}`);
    /** @type {string[]} */
    this.frames = [];
    /** @type {any[]} every frame that is a JSON object with a type */
    this.messages = [];
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.upgrade = new Promise((resolve) => {
      this.ws.once('open', () => resolve({ opened: true, status: 101 }));
      this.ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ opened: false, status: res.statusCode, body }));
      });
      this.ws.once('error', () => {});
    });
    this.ws.on('message', (data) => {
      const text = data.toString();
      this.frames.push(text);
      let message;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      if (message === null || typeof message !== 'object' || Array.isArray(message) || typeof message.type !== 'string') return;
      this.messages.push(message);
      if (message.type === 'ping') this.ws.send(JSON.stringify({ type: 'pong', event_id: message.ping_event.event_id }));
    });
  }

  /** @param {(m: any) => boolean} predicate */
  async next(predicate) {
    await until(() => this.messages.some(predicate));
    return this.messages.find(predicate);
  }

  async start() {
    const upgrade = await this.upgrade;
    assert.equal(upgrade.opened, true, 'socket opened');
    this.ws.send(JSON.stringify({ type: 'conversation_initiation_client_data' }));
    const metadata = await this.next((m) => m.type === 'conversation_initiation_metadata');
    return metadata.conversation_initiation_metadata_event.conversation_id;
  }

  /** Sends a user message and waits for the whole reply. @param {string} text */
  async ask(text) {
    const from = this.messages.length;
    this.ws.send(JSON.stringify({ type: 'user_message', text }));
    await until(() => this.messages.slice(from).some((m) => m.type === 'agent_response'));
    return this.messages.slice(from).find((m) => m.type === 'agent_response').agent_response_event.agent_response;
  }
}

describe('fault switches: the switch itself', () => {
  test('needs the key (401), refuses bad bodies (422), answers the faults in force; DELETE clears', async () => {
    for (const method of /** @type {const} */ (['GET', 'PUT', 'DELETE'])) {
      const denied = await faults(method, method === 'PUT' ? { widget: { status: 500 } } : undefined, { auth: false });
      assert.equal(denied.status, 401, method);
      assert.equal(denied.json.detail.status, 'invalid_api_key');
    }
    assert.deepEqual((await faults('GET')).json, {}, 'the PUT without a key set nothing');

    for (const [body, loc, type] of /** @type {[unknown, (string|number)[], string][]} */ ([
      [[], ['body'], 'dict_type'],
      [{ widgets: {} }, ['body', 'widgets'], 'extra_forbidden'],
      [{ widget: { stauts: 500 } }, ['body', 'widget', 'stauts'], 'extra_forbidden'],
      [{ widget: { status: '500' } }, ['body', 'widget', 'status'], 'int_type'],
      [{ widget: { status: 700 } }, ['body', 'widget', 'status'], 'range'],
      [{ widget: { status: 200 } }, ['body', 'widget', 'status'], 'value_error'],
      [{ widget: { delay_ms: 30001 } }, ['body', 'widget', 'delay_ms'], 'range'],
      [{ widget: { hang: false } }, ['body', 'widget', 'hang'], 'literal_error'],
      [{ widget: { times: 0 } }, ['body', 'widget', 'times'], 'range'],
      [{ socket: { code: 1005, close_after_ms: 10 } }, ['body', 'socket', 'code'], 'close_code'],
      [{ socket: { reason: 'x'.repeat(124) } }, ['body', 'socket', 'reason'], 'string_too_long'],
      [{ socket: { garbage_every_ms: 1 } }, ['body', 'socket', 'garbage_every_ms'], 'range'],
      [{ socket: { error_message: { code: 1, message: 2 } } }, ['body', 'socket', 'error_message', 'message'], 'string_type'],
      [{ socket: 'refuse' }, ['body', 'socket'], 'dict_type'],
    ])) {
      const refused = await faults('PUT', body);
      assert.equal(refused.status, 422, JSON.stringify(body));
      assert.deepEqual([refused.json.detail[0].loc, refused.json.detail[0].type], [loc, type], JSON.stringify(body));
    }
    assert.deepEqual((await faults('GET')).json, {}, 'a refused body sets nothing');

    const set = await faults('PUT', { widget: { status: 503, times: 2 }, socket: { refuse: true } });
    assert.equal(set.status, 200);
    assert.deepEqual(set.json, { widget: { status: 503, times: 2 }, socket: { refuse: true } });
    await readWidget('agent_minimal');
    assert.deepEqual((await faults('GET')).json.widget, { status: 503, times: 1 }, 'times counts down');
    const replaced = await faults('PUT', { socket: { silent: true } });
    assert.deepEqual(replaced.json, { socket: { silent: true } }, 'a PUT replaces every fault');
    const cleared = await faults('DELETE');
    assert.equal(cleared.status, 200);
    assert.deepEqual(cleared.json, {});
    const preflight = await fetch(`${base}/v1/dev/faults`, { method: 'OPTIONS', headers: { Origin: 'http://page.example' } });
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /DELETE/);
  });
});

describe('fault switches: widget read', () => {
  test('status 500 with a JSON detail, for one agent only, for the next read only (times)', async () => {
    await faults('PUT', { widget: { agent_id: 'agent_minimal', status: 500, times: 1 } });
    const other = await readWidget('agent_text_only');
    assert.equal(other.status, 200, 'another agent is not affected');
    const failed = await readWidget('agent_minimal');
    assert.equal(failed.status, 500);
    assert.match(failed.type ?? '', /^application\/json/);
    assert.deepEqual(JSON.parse(failed.text), { detail: { status: 'injected_fault', message: 'Injected fault: HTTP 500' } });
    const next = await readWidget('agent_minimal');
    assert.equal(next.status, 200, 'times: 1 applied once');
    assert.equal(JSON.parse(next.text).agent_id, 'agent_minimal');
  });

  test('until cleared without times; applies to unknown agents too', async () => {
    await faults('PUT', { widget: { status: 502 } });
    for (const agent of ['agent_minimal', 'agent_minimal', 'no_such_agent']) assert.equal((await readWidget(agent)).status, 502);
    await faults('DELETE');
    assert.equal((await readWidget('agent_minimal')).status, 200);
    assert.equal((await readWidget('no_such_agent')).status, 404);
  });

  test('body: 200 with invalid JSON, or with a JSON body of the wrong shape', async () => {
    await faults('PUT', { widget: { body: 'not json' } });
    const invalid = await readWidget('agent_minimal');
    assert.deepEqual([invalid.status, invalid.text], [200, 'not json']);
    assert.match(invalid.type ?? '', /^application\/json/);
    await faults('PUT', { widget: { body: '{"agent_id":"x"}' } });
    const wrong = await readWidget('agent_minimal');
    assert.deepEqual([wrong.status, JSON.parse(wrong.text)], [200, { agent_id: 'x' }]);
    await faults('PUT', { widget: { body: 'oops', status: 418 } });
    const teapot = await readWidget('agent_minimal');
    assert.deepEqual([teapot.status, teapot.text], [418, 'oops'], 'status and body together');
  });

  test('delay_ms: the normal answer, or the fault answer, comes after the delay', async () => {
    await faults('PUT', { widget: { delay_ms: 150 } });
    let started = Date.now();
    const slow = await readWidget('agent_minimal');
    assert.ok(Date.now() - started >= 140, `answered after ${Date.now() - started} ms`);
    assert.equal(slow.status, 200);
    assert.equal(JSON.parse(slow.text).widget_config.first_message, 'Hello! How can I help you today?');
    await faults('PUT', { widget: { delay_ms: 100, status: 500 } });
    started = Date.now();
    assert.equal((await readWidget('agent_minimal')).status, 500);
    assert.ok(Date.now() - started >= 90);
  });

  test('hang: no answer until cleared (then the normal one); a client that gives up is forgotten', async () => {
    await faults('PUT', { widget: { hang: true } });
    let answered = false;
    const pending = readWidget('agent_minimal').then((r) => ((answered = true), r));
    await until(() => running.service.faults.heldCount === 1);
    await sleep(150);
    assert.equal(answered, false, 'still no answer');
    await faults('DELETE');
    const released = await pending;
    assert.equal(released.status, 200);
    assert.equal(running.service.faults.heldCount, 0);

    await faults('PUT', { widget: { hang: true } });
    const abort = new AbortController();
    const aborted = readWidget('agent_minimal', { signal: abort.signal }).catch((error) => error);
    await until(() => running.service.faults.heldCount === 1);
    abort.abort();
    assert.equal((await aborted).name, 'AbortError');
    await until(() => running.service.faults.heldCount === 0);
  });

  test('replacing the faults releases a hang; close() ends held reads at once and leaves no timer behind', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const timersBefore = timers();
    for (const fault of [{ hang: true }, { delay_ms: 30000 }]) {
      const own = await startService({ port: 0, log: () => {} });
      own.service.faults.set({ widget: { hang: true } });
      const released = readWidget('agent_minimal', {}, own.url);
      await until(() => own.service.faults.heldCount === 1);
      own.service.faults.set({ widget: fault });
      assert.equal((await released).status, 200, 'a new set of faults released the hang: answered normally');

      const held = [readWidget('agent_minimal', {}, own.url).catch((e) => e), readWidget('agent_text_only', {}, own.url).catch((e) => e)];
      await until(() => own.service.faults.heldCount === 2);
      const started = Date.now();
      await own.close();
      assert.ok(Date.now() - started < 1000, `close() took ${Date.now() - started} ms`);
      for (const result of await Promise.all(held)) assert.ok(result instanceof Error, `${JSON.stringify(fault)}: ended without an answer`);
      assert.equal(own.service.faults.heldCount, 0);
      assert.deepEqual(own.service.faults.current, {}, 'close() cleared the faults');
    }
    assert.equal(timers(), timersBefore, 'no timer left');
  });
});

describe('fault switches: conversation socket', () => {
  test('refuse: the upgrade gets HTTP 503; times: 1 lets the next conversation through', async () => {
    await faults('PUT', { socket: { refuse: true, times: 1 } });
    const refused = new RawClient('agent_minimal');
    const upgrade = await refused.upgrade;
    assert.equal(upgrade.opened, false);
    assert.equal(upgrade.status, 503);
    assert.equal(JSON.parse(upgrade.body).detail.status, 'injected_fault');
    const next = new RawClient('agent_minimal');
    await next.start();
    next.ws.close(1000);
    await next.closed;
  });

  test('close_after_ms: closed mid-call with the code and reason; the record is failed', async () => {
    await faults('PUT', { socket: { close_after_ms: 120, code: 1011, reason: 'overloaded' } });
    const client = new RawClient('agent_minimal');
    const conversationId = await client.start();
    assert.equal(await client.ask('hi'), echoReply('hi'), 'the conversation runs until then');
    assert.deepEqual(await client.closed, { code: 1011, reason: 'overloaded' });
    const record = running.service.conversations.get(conversationId);
    await until(() => record?.status !== 'in-progress'); // the service's side of the close handshake
    assert.equal(record?.status, 'failed');
    assert.equal(record?.metadata.termination_reason, 'error');
    assert.deepEqual(record?.metadata.error, { code: 1011, reason: 'overloaded' });

    await faults('PUT', { socket: { close_after_ms: 10 } });
    const defaults = new RawClient('agent_minimal');
    await defaults.start();
    assert.deepEqual(await defaults.closed, { code: 1011, reason: 'injected fault' });
  });

  test('garbage_every_ms: garbage frames between normal traffic; the conversation goes on', async () => {
    await faults('PUT', { socket: { garbage_every_ms: 5 } });
    const client = new RawClient('agent_minimal');
    await client.start();
    assert.equal(await client.ask('hello'), echoReply('hello'));
    await until(() => GARBAGE_FRAMES.every((frame) => client.frames.includes(frame)));
    const first = client.frames.indexOf(GARBAGE_FRAMES[0]);
    const reply = client.frames.findIndex((f) => f.includes('"agent_chat_response_part"'));
    assert.ok(first < client.frames.findLastIndex((f) => f.includes('"agent_response"')), 'garbage came before the end of the reply');
    assert.ok(reply >= 0);
    assert.ok(client.messages.some((m) => m.type === 'x_injected_unknown'), 'unknown types');
    assert.ok(client.frames.some((f) => { try { JSON.parse(f); return false; } catch { return true; } }), 'frames that are not JSON');
    assert.equal(client.ws.readyState, WebSocket.OPEN);
    client.ws.close(1000);
    await client.closed;
  });

  test('error_message: an error after the first agent message, then the conversation goes on', async () => {
    await faults('PUT', { socket: { error_message: { code: 1011, message: 'the model is overloaded' } } });
    const client = new RawClient('agent_minimal');
    await client.start();
    await client.next((m) => m.type === 'error');
    const types = client.messages.map((m) => m.type);
    assert.deepEqual(types.slice(0, 3), ['conversation_initiation_metadata', 'agent_response', 'error']);
    assert.deepEqual(client.messages[2].error_event, { code: 1011, message: 'the model is overloaded' });
    assert.equal(await client.ask('still there'), echoReply('still there'));
    assert.equal(client.messages.filter((m) => m.type === 'error').length, 1, 'sent once');
    client.ws.close(1000);
    await client.closed;

    // An agent without a first message: after its first reply.
    await faults('PUT', { socket: { error_message: { code: 7, message: 'late' } } });
    const quiet = new RawClient('agent_minimal');
    await quiet.upgrade;
    quiet.ws.send(JSON.stringify({ type: 'conversation_initiation_client_data', conversation_config_override: { agent: { first_message: '' } } }));
    await quiet.next((m) => m.type === 'conversation_initiation_metadata');
    await quiet.ask('hi');
    await quiet.next((m) => m.type === 'error');
    assert.deepEqual(quiet.messages.filter((m) => m.type !== 'ping' && m.type !== 'audio').map((m) => m.type).slice(-2), ['agent_response', 'error']);
    quiet.ws.close(1000);
    await quiet.closed;
  });

  test('silent: the metadata, then nothing at all (no first message, pings, replies); the socket stays open', async () => {
    await faults('PUT', { socket: { silent: true, times: 1 } });
    const client = new RawClient('agent_minimal');
    const conversationId = await client.start();
    client.ws.send(JSON.stringify({ type: 'user_message', text: 'anyone there?' }));
    await sleep(300); // more than 7 ping intervals of this service
    assert.deepEqual(client.frames.map((f) => JSON.parse(f).type), ['conversation_initiation_metadata']);
    assert.equal(client.ws.readyState, WebSocket.OPEN);
    const record = running.service.conversations.get(conversationId);
    assert.equal(record?.metadata.pings_sent, 0);
    assert.deepEqual(record?.transcript.map((t) => [t.role, t.message]), [['user', 'anyone there?']], 'what the client sends is recorded');
    client.ws.close(1000);
    await client.closed;

    const next = new RawClient('agent_minimal');
    await next.start();
    await next.next((m) => m.type === 'ping');
    next.ws.close(1000);
    await next.closed;
  });

  test('ping_every_ms and silent_after_ms: pings at that pace, then nothing at all; the socket stays open', async () => {
    await faults('PUT', { socket: { ping_every_ms: 50, silent_after_ms: 400, times: 1 } });
    const client = new RawClient('agent_minimal');
    await client.start();
    await sleep(350);
    const pings = () => client.frames.filter((f) => JSON.parse(f).type === 'ping').length;
    const before = pings();
    assert.ok(before >= 5, `pings at the fault's pace before the silence (${before} in 350 ms)`);
    await sleep(400);
    const count = client.frames.length;
    await sleep(300);
    assert.equal(client.frames.length, count, 'nothing at all once silent');
    assert.ok(pings() <= before + 2, 'the pings stopped');
    assert.equal(client.ws.readyState, WebSocket.OPEN);
    client.ws.close(1000);
    await client.closed;
    assert.equal((await faults('PUT', { socket: { ping_every_ms: 10 } })).status, 422, 'a pace under 50 ms is refused');
  });

  test('part_delay_ms: the parts of a reply come that far apart; out of range is refused', async () => {
    await faults('PUT', { socket: { part_delay_ms: 60, times: 1 } });
    const client = new RawClient('agent_minimal');
    await client.start();
    const deltas = [];
    client.ws.on('message', (data) => String(data).includes('"delta"') && deltas.push(performance.now()));
    assert.equal(await client.ask('one two three four five six seven'), echoReply('one two three four five six seven'));
    assert.ok(deltas.length >= 3, `${deltas.length} deltas`);
    for (let i = 1; i < deltas.length; i++) assert.ok(deltas[i] - deltas[i - 1] >= 50, `parts ${Math.round(deltas[i] - deltas[i - 1])} ms apart`);
    client.ws.close(1000);
    await client.closed;
    assert.equal((await faults('PUT', { socket: { part_delay_ms: -1 } })).status, 422);
    assert.equal((await faults('PUT', { socket: { part_delay_ms: 30001 } })).status, 422);
  });

  test('faults of one agent leave other agents alone; faults combine', async () => {
    await faults('PUT', { socket: { agent_id: 'agent_text_only', refuse: true } });
    const other = new RawClient('agent_minimal');
    await other.start();
    other.ws.close(1000);
    assert.equal((await new RawClient('agent_text_only').upgrade).status, 503);

    await faults('PUT', { socket: { garbage_every_ms: 5, close_after_ms: 100, code: 4000 } });
    const combined = new RawClient('agent_minimal');
    await combined.start();
    assert.equal((await combined.closed).code, 4000);
    assert.ok(combined.frames.includes(GARBAGE_FRAMES[0]));
  });
});

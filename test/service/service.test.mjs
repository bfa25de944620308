// Tests of the reference Voice Agent Service (demo/service). Run: node --test test/service/
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { createService, startService } from '../../demo/service/service.mjs';
import {
  GOODBYE_REPLY, LINKS_REPLY, MARKDOWN_REPLY, TOOL_TIMEOUT_REPLY, echoReply, fillDynamicVariables, scriptedReply, splitReply, toolReply,
} from '../../demo/service/script.mjs';

/** @type {Awaited<ReturnType<typeof startService>>} */
let running;
let base = '';
let wsBase = '';
let key = '';

before(async () => {
  running = await startService({ port: 0, log: () => {}, replyDelayMs: 1, pingIntervalMs: 50, audioRealtime: false });
  base = running.url;
  wsBase = base.replace(/^http:/, 'ws:');
  key = running.apiKey;
});

after(async () => {
  await running.close();
});

/**
 * @param {string} path @param {{method?: string, body?: unknown, raw?: string, headers?: Record<string, string>, auth?: boolean}} [init]
 */
async function call(path, init = {}) {
  /** @type {Record<string, string>} */
  const headers = { ...(init.headers ?? {}) };
  if (init.auth) headers['x-api-key'] = key;
  let body;
  if (init.raw !== undefined) body = init.raw;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base + path, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

/** A conversation socket that queues every message it receives and can answer pings. */
class Client {
  /** @param {string} agentId @param {{pong?: boolean}} [options] */
  constructor(agentId, options = {}) {
    this.ws = new WebSocket(`${wsBase}/v1/voiceai/conversation?agent_id=${encodeURIComponent(agentId)}`);
    /** @type {any[]} */
    this.messages = [];
    /** @type {{predicate: (m: any) => boolean, resolve: (m: any) => void}[]} */
    this.waiters = [];
    this.pings = 0;
    /** index of the message after the last one `next` returned */
    this.cursor = 0;
    this.conversationId = '';
    this.closed = new Promise((resolve) => {
      this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('error', reject);
    });
    this.ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'ping') {
        this.pings += 1;
        if (options.pong !== false) this.send({ type: 'pong', event_id: message.ping_event.event_id });
      }
      this.messages.push(message);
      for (const waiter of [...this.waiters]) {
        if (waiter.predicate(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
  }

  /** @param {unknown} message */
  send(message) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /**
   * The first message (received from index `from` on) that matches; waits for it when needed.
   * @param {string | ((m: any) => boolean)} match a type or a predicate
   * @param {number} [from]
   */
  next(match, from = this.cursor) {
    const predicate = typeof match === 'string' ? (/** @type {any} */ m) => m.type === match : match;
    const found = this.messages.slice(from).find(predicate);
    if (found) {
      this.cursor = this.messages.indexOf(found) + 1;
      return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message matching ${String(match)}`)), 2000);
      this.waiters.push({
        predicate: (m) => this.messages.indexOf(m) >= from && predicate(m),
        resolve: (m) => {
          clearTimeout(timer);
          this.cursor = this.messages.indexOf(m) + 1;
          resolve(m);
        },
      });
    });
  }

  /** Opens, initiates and returns the conversation id and the first agent_response. */
  async start(initiation = {}) {
    await this.opened;
    this.send({ type: 'conversation_initiation_client_data', ...initiation });
    const metadata = await this.next('conversation_initiation_metadata');
    this.conversationId = metadata.conversation_initiation_metadata_event.conversation_id;
    return metadata;
  }

  /**
   * Sends a user message and collects the reply: the streamed parts and the final agent_response.
   * @param {string} text
   */
  async ask(text) {
    const from = this.messages.length;
    this.send({ type: 'user_message', text });
    const start = await this.next((m) => m.type === 'agent_chat_response_part' && m.text_response_part.type === 'start', from);
    const eventId = start.text_response_part.event_id;
    const response = await this.next((m) => m.type === 'agent_response' && m.agent_response_event.event_id === eventId, from);
    const parts = this.messages
      .slice(from)
      .filter((m) => m.type === 'agent_chat_response_part' && m.text_response_part.event_id === eventId);
    return { eventId, response: response.agent_response_event.agent_response, parts };
  }

  close(code = 1000) {
    this.ws.close(code);
    return this.closed;
  }
}

/** @param {string} conversationId */
async function record(conversationId) {
  const { status, json } = await call(`/v1/voiceai/conversations/${conversationId}`, { auth: true });
  assert.equal(status, 200);
  return json;
}

/** Waits until `check` returns true (polling the event loop), at most 2 s. @param {() => boolean | Promise<boolean>} check */
async function until(check) {
  const end = Date.now() + 2000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('script', () => {
  test('chooses replies by the first matching rule, case-insensitively', () => {
    assert.deepEqual(scriptedReply('OK BYE, send a link'), { kind: 'end', text: GOODBYE_REPLY });
    assert.deepEqual(scriptedReply('Links and tools please'), { kind: 'links', text: LINKS_REPLY });
    assert.deepEqual(scriptedReply('What TIME is it? markdown'), { kind: 'tool', toolName: 'get_page_time', parameters: { format: 'iso' } });
    assert.deepEqual(scriptedReply('show me Markdown'), { kind: 'markdown', text: MARKDOWN_REPLY });
    assert.deepEqual(scriptedReply('<b>hi</b>'), {
      kind: 'echo', text: 'You said: **<b>hi</b>**. Ask me for *links*, a *tool*, some *markdown*, or say *bye*.',
    });
    assert.equal(toolReply({ result: '2024-01-02T03:04:05Z' }), 'The page answered: 2024-01-02T03:04:05Z');
    assert.equal(toolReply({ result: 'no clock', isError: true }), 'The tool failed: no clock');
    assert.equal(toolReply(null), 'The page did not answer the tool call.');
  });

  test('fills dynamic variables and splits replies into 2-3 word parts that join exactly', () => {
    assert.equal(fillDynamicVariables('Hi {{name}}, {{ n }} {{missing}}!', { name: 'Ada', n: 3 }), 'Hi Ada, 3 !');
    for (const text of [LINKS_REPLY, MARKDOWN_REPLY, '  lead and trail  ', 'one', echoReply('a  b\n\nc')]) {
      const parts = splitReply(text);
      assert.equal(parts.join(''), text);
      for (const part of parts) assert.ok(part.trim().split(/\s+/).length <= 3, `part too long: ${JSON.stringify(part)}`);
    }
    assert.deepEqual(splitReply('a b c d e f g'), ['a b ', 'c d e ', 'f g']);
    assert.deepEqual(splitReply(''), []);
  });
});

describe('REST', () => {
  test('widget read: 200 with CORS, 404 for an unknown agent, preflight 204', async () => {
    const full = await fetch(`${base}/v1/convai/agents/agent_demo_support/widget?conversation_signature=abc`, {
      headers: { Origin: 'https://shop.example' },
    });
    assert.equal(full.status, 200);
    assert.equal(full.headers.get('access-control-allow-origin'), 'https://shop.example');
    assert.equal(full.headers.get('vary'), 'Origin');
    const body = await full.json();
    assert.equal(body.agent_id, 'agent_demo_support');
    assert.equal(body.widget_config.variant, 'full');
    assert.equal(body.widget_config.first_message, "Hi {{customer_name}}! I'm the Acme assistant. How can I help?");
    assert.deepEqual(body.widget_config.markdown_link_allowed_hosts, [{ hostname: 'acme.example' }, { hostname: 'docs.acme.example' }]);

    const minimal = await call('/v1/convai/agents/agent_minimal/widget');
    assert.equal(minimal.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(minimal.json, { agent_id: 'agent_minimal', widget_config: { first_message: 'Hello! How can I help you today?' } });

    const textOnly = await call('/v1/convai/agents/agent_text_only/widget');
    assert.equal(textOnly.json.widget_config.text_only, true);
    assert.deepEqual(textOnly.json.widget_config.markdown_link_allowed_hosts, [{ hostname: 'example.org' }]);

    const missing = await call('/v1/convai/agents/nope/widget');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(missing.json, { detail: { status: 'agent_not_found', message: "Agent 'nope' was not found" } });

    const preflight = await fetch(`${base}/v1/convai/agents/create`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    assert.equal(preflight.headers.get('access-control-allow-headers'), 'content-type, x-api-key');
  });

  test('create needs the key; 401 without it; the new agent serves its widget', async () => {
    const body = {
      name: 'Created',
      tags: ['demo'],
      conversation_config: { agent: { first_message: 'Welcome, {{who}}!', language: 'de' }, conversation: { text_only: true } },
      platform_settings: { widget: { variant: 'compact', styles: { accent: '#ff0000', button_radius: 4 }, custom_field: 1 } },
    };
    const noKey = await call('/v1/convai/agents/create', { method: 'POST', body });
    assert.equal(noKey.status, 401);
    assert.equal(noKey.json.detail.status, 'invalid_api_key');
    const badKey = await call('/v1/convai/agents/create', { method: 'POST', body, headers: { 'x-api-key': 'wrong' } });
    assert.equal(badKey.status, 401);

    const created = await call('/v1/convai/agents/create', { method: 'POST', body, auth: true });
    assert.equal(created.status, 200);
    assert.match(created.json.agent_id, /^agent_[0-9a-f]+$/);
    const widget = await call(`/v1/convai/agents/${created.json.agent_id}/widget`);
    assert.deepEqual(widget.json.widget_config, {
      variant: 'compact', styles: { accent: '#ff0000', button_radius: 4 }, custom_field: 1,
      first_message: 'Welcome, {{who}}!', language: 'de', text_only: true,
    });
    const list = await call('/v1/convai/agents', { auth: true });
    assert.ok(list.json.agents.some((/** @type {any} */ a) => a.agent_id === created.json.agent_id && a.name === 'Created'));
    assert.equal((await call('/v1/convai/agents')).status, 401);
  });

  test('bad bodies get 422 HTTPValidationError with locations; 413 over 1 MB', async () => {
    const invalidJson = await call('/v1/convai/agents/create', { method: 'POST', raw: '{"conversation_config": ', auth: true });
    assert.equal(invalidJson.status, 422);
    assert.equal(invalidJson.json.detail[0].type, 'json_invalid');
    assert.deepEqual(invalidJson.json.detail[0].loc, ['body']);

    const missing = await call('/v1/convai/agents/create', { method: 'POST', body: { name: 'x' }, auth: true });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json.detail.map((/** @type {any} */ e) => [e.loc, e.type]), [[['body', 'conversation_config'], 'missing']]);

    const wrongTypes = await call('/v1/convai/agents/create', {
      method: 'POST',
      auth: true,
      body: {
        conversation_config: {},
        tags: ['ok', 3],
        platform_settings: {
          widget: {
            dismissible: 'yes',
            styles: { accent: 5, bubble_radius: '15px' },
            markdown_link_allowed_hosts: [{ hostname: 'a.example' }, { host: 'b.example' }],
            text_contents: { main_label: null },
            unknown_field: { anything: true },
          },
        },
      },
    });
    assert.equal(wrongTypes.status, 422);
    const found = wrongTypes.json.detail.map((/** @type {any} */ e) => `${e.loc.join('.')}:${e.type}`).sort();
    assert.deepEqual(found, [
      'body.platform_settings.widget.dismissible:bool_type',
      'body.platform_settings.widget.markdown_link_allowed_hosts.1.hostname:missing',
      'body.platform_settings.widget.styles.accent:string_type',
      'body.platform_settings.widget.styles.bubble_radius:float_type',
      'body.platform_settings.widget.text_contents.main_label:string_type',
      'body.tags.1:string_type',
    ]);
    for (const error of wrongTypes.json.detail) assert.equal(typeof error.msg, 'string');

    const huge = await fetch(`${base}/v1/convai/agents/create`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_config: {}, name: 'x'.repeat(1024 * 1024) }),
    });
    assert.equal(huge.status, 413);
  });

  test('patch deep-merges objects, replaces arrays, updates the widget; 401/404/422', async () => {
    const { json: { agent_id: agentId } } = await call('/v1/convai/agents/create', {
      method: 'POST',
      auth: true,
      body: {
        conversation_config: { agent: { first_message: 'Old', language: 'en' } },
        platform_settings: { widget: { styles: { accent: '#000000', base: '#ffffff' }, supported_language_overrides: ['en', 'de'] } },
      },
    });
    const patch = {
      name: 'Renamed',
      conversation_config: { agent: { first_message: 'New first message' } },
      platform_settings: { widget: { styles: { accent: '#123456' }, supported_language_overrides: ['fr'] } },
    };
    assert.equal((await call(`/v1/convai/agents/${agentId}`, { method: 'PATCH', body: patch })).status, 401);
    const updated = await call(`/v1/convai/agents/${agentId}`, { method: 'PATCH', body: patch, auth: true });
    assert.equal(updated.status, 200);
    assert.equal(updated.json.agent_id, agentId);
    assert.equal(updated.json.name, 'Renamed');
    assert.deepEqual(updated.json.conversation_config.agent, { first_message: 'New first message', language: 'en' });
    assert.deepEqual(updated.json.platform_settings.widget.styles, { accent: '#123456', base: '#ffffff' });
    assert.deepEqual(updated.json.platform_settings.widget.supported_language_overrides, ['fr']);
    assert.deepEqual(updated.json.phone_numbers, []);
    assert.equal(updated.json.access_info.is_creator, true);
    assert.equal(typeof updated.json.metadata.created_at_unix_secs, 'number');

    const widget = await call(`/v1/convai/agents/${agentId}/widget`);
    assert.equal(widget.json.widget_config.first_message, 'New first message');
    const read = await call(`/v1/convai/agents/${agentId}`, { auth: true });
    assert.deepEqual(read.json, updated.json);

    const unknown = await call('/v1/convai/agents/agent_nope', { method: 'PATCH', body: { name: 'x' }, auth: true });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.detail.status, 'agent_not_found');
    const bad = await call(`/v1/convai/agents/${agentId}`, {
      method: 'PATCH', body: { conversation_config: { tts: { agent_output_audio_format: 'mp3' } } }, auth: true,
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json.detail[0].loc, ['body', 'conversation_config', 'tts', 'agent_output_audio_format']);
    const notObject = await call(`/v1/convai/agents/${agentId}`, { method: 'PATCH', body: [1], auth: true });
    assert.equal(notObject.status, 422);
    assert.equal(notObject.json.detail[0].type, 'model_attributes_type');
    const proto = await call(`/v1/convai/agents/${agentId}`, {
      method: 'PATCH', raw: '{"platform_settings":{"widget":{"__proto__":{"polluted":true}}}}', auth: true,
    });
    assert.equal(proto.status, 200);
    assert.equal(/** @type {any} */ ({}).polluted, undefined);
  });

  test('dev switch: PUT stores any widget value verbatim (key required), the widget read returns it as is', async () => {
    const path = '/v1/dev/agents/agent_dev_hostile/widget';
    const hostile = {
      variant: 42,
      first_message: '<script>alert(1)</script>',
      language: { evil: true },
      text_only: 'yes',
      styles: { accent: 'red; background: url(https://evil.example/x)', button_radius: '18' },
    };
    assert.equal((await call(path, { method: 'PUT', body: hostile })).status, 401);
    assert.equal((await call(path, { method: 'PUT', body: hostile, headers: { 'x-api-key': 'wrong' } })).status, 401);
    assert.equal((await call('/v1/convai/agents/agent_dev_hostile/widget')).status, 404, 'a refused PUT creates nothing');

    const put = await call(path, { method: 'PUT', body: hostile, auth: true });
    assert.equal(put.status, 200);
    assert.deepEqual(put.json, { agent_id: 'agent_dev_hostile', widget_config: hostile });
    const read = await call('/v1/convai/agents/agent_dev_hostile/widget');
    assert.equal(read.status, 200);
    assert.deepEqual(read.json, { agent_id: 'agent_dev_hostile', widget_config: hostile });
    // The created agent has a minimal conversation_config and talks like any other.
    const agent = await call('/v1/convai/agents/agent_dev_hostile', { auth: true });
    assert.deepEqual(agent.json.conversation_config.agent, { prompt: { prompt: 'You are the scripted demo agent of the reference Voice Agent Service.' } });
    assert.deepEqual(agent.json.conversation_config.conversation, {});

    // Any JSON value, __proto__ keys kept as own keys; a fixture agent keeps its conversation_config but its
    // first_message / language / text_only no longer overwrite the stored widget.
    for (const value of [null, 'just a string', [1, { variant: 'full' }], 0, false]) {
      const stored = await call(path, { method: 'PUT', body: value, auth: true });
      assert.equal(stored.status, 200);
      assert.deepEqual((await call('/v1/convai/agents/agent_dev_hostile/widget')).json, { agent_id: 'agent_dev_hostile', widget_config: value });
    }
    const raw = '{"text_contents":{"__proto__":{"main_label":"polluted"},"constructor":{"prototype":{"x":1}}}}';
    assert.equal((await call(path, { method: 'PUT', raw, auth: true })).status, 200);
    const proto = await fetch(`${base}/v1/convai/agents/agent_dev_hostile/widget`).then((r) => r.text());
    assert.equal(proto, `{"agent_id":"agent_dev_hostile","widget_config":${raw}}`);
    assert.equal(/** @type {any} */ ({}).main_label, undefined);

    const full = '/v1/dev/agents/agent_text_only/widget';
    // Checked on a service of its own so the shared fixture agent stays untouched for the other tests.
    const own = await startService({ port: 0, log: () => {} });
    try {
      const putFull = await fetch(own.url + full, {
        method: 'PUT', headers: { 'x-api-key': own.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ text_only: 'no', language: 7 }),
      });
      assert.equal(putFull.status, 200);
      const served = await fetch(`${own.url}/v1/convai/agents/agent_text_only/widget`).then((r) => r.json());
      assert.deepEqual(served.widget_config, { text_only: 'no', language: 7 });
      assert.equal(own.service.agents.get('agent_text_only')?.conversation_config.conversation.text_only, true);
      // A PATCH afterwards makes it an ordinary agent again: conversation_config wins over the widget's own fields.
      const patched = await fetch(`${own.url}/v1/convai/agents/agent_text_only`, {
        method: 'PATCH', headers: { 'x-api-key': own.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'again' }),
      });
      assert.equal(patched.status, 200);
      const ordinary = await fetch(`${own.url}/v1/convai/agents/agent_text_only/widget`).then((r) => r.json());
      assert.equal(ordinary.widget_config.text_only, true);
      // Up to 16 MB: a 2 MB string passes here (PATCH and create stop at 1 MB), 17 MB gets 413.
      const big = await fetch(own.url + full, {
        method: 'PUT', headers: { 'x-api-key': own.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ terms_html: 'x'.repeat(2 * 1024 * 1024) }),
      });
      assert.equal(big.status, 200);
      const tooBig = await fetch(own.url + full, {
        method: 'PUT', headers: { 'x-api-key': own.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ terms_html: 'x'.repeat(17 * 1024 * 1024) }),
      });
      assert.equal(tooBig.status, 413);
    } finally {
      await own.close();
    }

    const notJson = await call(path, { method: 'PUT', raw: '{"variant": ', auth: true });
    assert.equal(notJson.status, 422);
    assert.equal(notJson.json.detail[0].type, 'json_invalid');
    const wrongMethod = await call(path, { method: 'GET', auth: true });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'PUT, OPTIONS');
  });

  test('unknown paths 404, wrong methods 405, other paths left to the host server', async () => {
    const unknown = await call('/v1/nothing/here', { auth: true });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.json, { detail: 'Not found' });
    const wrongMethod = await call('/v1/convai/agents/agent_minimal/widget', { method: 'POST', body: {} });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'GET, OPTIONS');

    const service = createService({ log: () => {} });
    const untouchable = new Proxy({}, { get() { throw new Error('res was touched'); } });
    assert.equal(service.handleRequest(/** @type {any} */ ({ url: '/index.html', method: 'GET', headers: {} }), /** @type {any} */ (untouchable)), false);
    assert.equal(service.handleUpgrade(/** @type {any} */ ({ url: '/other', headers: {} }), /** @type {any} */ (untouchable), Buffer.alloc(0)), false);
    assert.match(service.apiKey, /^dev_[0-9a-f]{24}$/);
    assert.equal(service.agents.get('agent_minimal')?.conversation_config.agent.first_message, 'Hello! How can I help you today?');
    await service.close();
  });
});

describe('conversation socket', () => {
  test('handshake, first message with a dynamic variable, streamed reply, pings and pongs recorded', async () => {
    const client = new Client('agent_demo_support');
    const metadata = await client.start({
      dynamic_variables: { customer_name: 'Ada' },
      user_id: 'user-7',
      source_info: { source: 'widget', version: '0.1.0' },
    });
    assert.match(client.conversationId, /^conv_[0-9a-f]{20}$/);
    assert.deepEqual(metadata.conversation_initiation_metadata_event, {
      conversation_id: client.conversationId, agent_output_audio_format: 'pcm_16000', user_input_audio_format: 'pcm_16000',
    });
    const first = await client.next('agent_response');
    assert.deepEqual(first.agent_response_event, { agent_response: "Hi Ada! I'm the Acme assistant. How can I help?", event_id: 1 });
    const ping = await client.next('ping');
    assert.deepEqual(ping.ping_event, { event_id: 1, ping_ms: null });

    const { eventId, response, parts } = await client.ask('Hello <b>there</b> friend of mine');
    assert.equal(eventId, 2);
    assert.equal(response, 'You said: **Hello <b>there</b> friend of mine**. Ask me for *links*, a *tool*, some *markdown*, or say *bye*.');
    assert.deepEqual(parts[0].text_response_part, { text: '', type: 'start', event_id: 2 });
    assert.equal(parts.at(-1).text_response_part.type, 'stop');
    const deltas = parts.filter((/** @type {any} */ p) => p.text_response_part.type === 'delta');
    assert.ok(deltas.length > 5);
    assert.equal(deltas.map((/** @type {any} */ p) => p.text_response_part.text).join(''), response);

    const second = await client.ask('show me markdown');
    assert.equal(second.eventId, 3);
    assert.equal(second.response, MARKDOWN_REPLY);

    await until(async () => client.pings >= 3 && (await record(client.conversationId)).metadata.pongs_received >= 3);
    const data = await record(client.conversationId);
    assert.equal(data.status, 'in-progress');
    assert.equal(data.agent_id, 'agent_demo_support');
    assert.equal(data.user_id, 'user-7');
    assert.deepEqual(data.conversation_initiation_client_data.dynamic_variables, { customer_name: 'Ada' });
    assert.deepEqual(data.conversation_initiation_client_data.source_info, { source: 'widget', version: '0.1.0' });
    assert.equal(data.metadata.main_language, 'en');
    assert.equal(data.metadata.text_only, false);
    assert.ok(data.metadata.pings_sent >= data.metadata.pongs_received);
    assert.deepEqual(data.transcript.map((/** @type {any} */ t) => [t.role, t.message]), [
      ['agent', "Hi Ada! I'm the Acme assistant. How can I help?"],
      ['user', 'Hello <b>there</b> friend of mine'],
      ['agent', response],
      ['user', 'show me markdown'],
      ['agent', MARKDOWN_REPLY],
    ]);
    assert.equal(data.transcript[1].interrupted, false);

    const closed = await client.close(1000);
    assert.equal(closed.code, 1000);
    await until(async () => (await record(client.conversationId)).status === 'done');
    const done = await record(client.conversationId);
    assert.equal(done.metadata.termination_reason, 'client_ended');
    assert.ok(Number.isInteger(done.metadata.call_duration_secs));
  });

  test('overrides: first message, language, text_only; missing variables become empty', async () => {
    const client = new Client('agent_minimal');
    await client.start({
      conversation_config_override: { agent: { first_message: 'Hallo {{name}}{{missing}}, Nr. {{n}}', language: 'de' }, conversation: { text_only: true } },
      dynamic_variables: { name: 'Bea', n: 42 },
    });
    const first = await client.next('agent_response');
    assert.equal(first.agent_response_event.agent_response, 'Hallo Bea, Nr. 42');
    const data = await record(client.conversationId);
    assert.equal(data.metadata.main_language, 'de');
    assert.equal(data.metadata.text_only, true);
    await client.close(4000);
    await until(async () => (await record(client.conversationId)).metadata.termination_reason === 'client_disconnected');
  });

  test('the link reply holds the exact link test text', async () => {
    const client = new Client('agent_text_only');
    await client.start();
    const first = await client.next('agent_response');
    assert.equal(first.agent_response_event.event_id, 1);
    const { response, parts } = await client.ask('Send me some LINKS');
    assert.equal(response, LINKS_REPLY);
    assert.ok(response.includes('[run](javascript:alert(1))'));
    assert.ok(response.includes('<a href="https://evil.example/x" style="position:fixed;inset:0">cover</a>'));
    assert.equal(parts.map((/** @type {any} */ p) => p.text_response_part.text).join(''), LINKS_REPLY);
    await client.close();
  });

  test('client tool round trip, error result, and the record of the calls', async () => {
    const client = new Client('agent_minimal');
    await client.start();
    await client.next('agent_response');
    client.send({ type: 'user_message', text: 'what time is it?' });
    const toolCall = await client.next('client_tool_call');
    assert.deepEqual(toolCall.client_tool_call, { tool_name: 'get_page_time', tool_call_id: 'call_1', parameters: { format: 'iso' }, event_id: 2 });
    client.send({ type: 'client_tool_result', tool_call_id: 'call_unknown', result: 'ignored', is_error: false });
    client.send({ type: 'client_tool_result', tool_call_id: 'call_1', result: '2030-01-01T00:00:00.000Z', is_error: false });
    const answered = await client.next((m) => m.type === 'agent_response' && m.agent_response_event.event_id === 2);
    assert.equal(answered.agent_response_event.agent_response, 'The page answered: 2030-01-01T00:00:00.000Z');

    client.send({ type: 'user_message', text: 'use the tool again' });
    const second = await client.next('client_tool_call');
    assert.equal(second.client_tool_call.tool_call_id, 'call_2');
    assert.equal(second.client_tool_call.event_id, 3);
    client.send({ type: 'client_tool_result', tool_call_id: 'call_2', result: 'clock broken', is_error: true });
    const failed = await client.next((m) => m.type === 'agent_response' && m.agent_response_event.event_id === 3);
    assert.equal(failed.agent_response_event.agent_response, 'The tool failed: clock broken');

    const data = await record(client.conversationId);
    const agentTurn = data.transcript[2];
    assert.equal(agentTurn.role, 'agent');
    assert.equal(agentTurn.message, 'The page answered: 2030-01-01T00:00:00.000Z');
    assert.deepEqual(agentTurn.tool_calls.map((/** @type {any} */ c) => [c.request_id, c.tool_name, c.params_as_json]), [['call_1', 'get_page_time', '{"format":"iso"}']]);
    assert.equal(agentTurn.tool_results[0].result_value, '2030-01-01T00:00:00.000Z');
    assert.equal(agentTurn.tool_results[0].is_error, false);
    assert.equal(data.transcript[4].tool_results[0].is_error, true);
    await client.close();
  });

  test('a tool call that gets no answer times out', async () => {
    const quick = await startService({ port: 0, log: () => {}, replyDelayMs: 1, pingIntervalMs: 1000, toolTimeoutMs: 50, initiationTimeoutMs: 50 });
    try {
      const ws = new WebSocket(`${quick.url.replace('http:', 'ws:')}/v1/voiceai/conversation?agent_id=agent_minimal`);
      /** @type {any[]} */
      const received = [];
      ws.on('message', (data) => received.push(JSON.parse(data.toString())));
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(JSON.stringify({ type: 'conversation_initiation_client_data' }));
      ws.send(JSON.stringify({ type: 'user_message', text: 'tool please' }));
      await until(() => received.some((m) => m.type === 'agent_response' && m.agent_response_event.event_id === 2));
      assert.equal(received.find((m) => m.type === 'agent_response' && m.agent_response_event.event_id === 2).agent_response_event.agent_response, TOOL_TIMEOUT_REPLY);
      ws.close();

      const silent = new WebSocket(`${quick.url.replace('http:', 'ws:')}/v1/voiceai/conversation?agent_id=agent_minimal`);
      const silentClosed = new Promise((resolve) => silent.on('close', (code) => resolve(code)));
      assert.equal(await silentClosed, 1008, 'no initiation in time closes with 1008');
    } finally {
      await quick.close();
    }
  });

  test('"bye" ends the conversation with 1000 and the record is done', async () => {
    const client = new Client('agent_minimal');
    await client.start();
    await client.next('agent_response');
    const { response } = await client.ask('ok, Bye now');
    assert.equal(response, 'Goodbye! Thanks for talking with me.');
    const closed = await client.closed;
    assert.deepEqual(closed, { code: 1000, reason: 'agent ended the conversation' });
    await until(async () => (await record(client.conversationId)).status === 'done');
    const data = await record(client.conversationId);
    assert.equal(data.metadata.termination_reason, 'agent_ended');
    assert.ok(Number.isInteger(data.metadata.call_duration_secs) && data.metadata.call_duration_secs >= 0);
    assert.deepEqual(data.transcript.at(-1), { role: 'agent', message: GOODBYE_REPLY, time_in_call_secs: data.transcript.at(-1).time_in_call_secs, interrupted: false });
  });

  test('other client messages: context, activity, audio, junk; none closes the socket', async () => {
    const client = new Client('agent_text_only');
    await client.start();
    await client.next('agent_response');
    client.send('this is not json');
    client.send({ type: 'something_new', value: 1 });
    client.send({ type: 'user_activity' });
    client.send({ type: 'contextual_update', text: 'The visitor opened the pricing page' });
    client.send({ user_audio_chunk: Buffer.alloc(640).toString('base64') });
    client.send({ user_audio_chunk: Buffer.alloc(320).toString('base64') });
    client.ws.send(Buffer.from('{"type":"user_message","text":"binary"}'), { binary: true });
    client.send({ type: 'user_message', text: `too large ${'x'.repeat(1024 * 1024)}` });
    const { response } = await client.ask('still there?');
    assert.equal(response, echoReply('still there?'));
    const data = await record(client.conversationId);
    assert.deepEqual(data.transcript[1], {
      role: 'user', message: 'The visitor opened the pricing page', time_in_call_secs: data.transcript[1].time_in_call_secs,
      interrupted: false, source: 'contextual_update',
    });
    assert.equal(data.metadata.user_audio_bytes, 960);
    assert.equal(data.has_user_audio, true);
    assert.equal(data.has_audio, true);
    assert.equal(data.has_response_audio, false);
    assert.equal(client.ws.readyState, WebSocket.OPEN);
    await client.close();
  });

  test('unknown agent: error 4004 and close 4004; a first message that is not the initiation: close 1008', async () => {
    const unknown = new Client('agent_missing');
    const error = await unknown.next('error');
    assert.deepEqual(error.error_event, { code: 4004, message: "Agent 'agent_missing' was not found" });
    assert.equal((await unknown.closed).code, 4004);

    const wrongFirst = new Client('agent_minimal');
    await wrongFirst.opened;
    wrongFirst.send({ type: 'user_message', text: 'hi' });
    const protocolError = await wrongFirst.next('error');
    assert.equal(protocolError.error_event.code, 1008);
    assert.equal((await wrongFirst.closed).code, 1008);
  });

  test('feedback over the socket (once per event) and over REST (200/422/404); the record needs the key', async () => {
    const client = new Client('agent_text_only');
    await client.start();
    await client.next('agent_response');
    const { eventId } = await client.ask('hi');
    client.send({ type: 'feedback', score: 'like', event_id: 1 });
    client.send({ type: 'feedback', score: 'like', event_id: 1 });
    client.send({ type: 'feedback', score: 'dislike', event_id: eventId });
    client.send({ type: 'feedback', score: 'like', event_id: 99 });
    await until(async () => (await record(client.conversationId)).metadata.feedback.dislikes === 1);
    assert.deepEqual((await record(client.conversationId)).metadata.feedback, { likes: 1, dislikes: 1, rating: null, comment: null });
    await client.close();

    const path = `/v1/voiceai/conversations/${client.conversationId}/feedback`;
    const rated = await call(path, { method: 'POST', body: { rating: 4, comment: 'Helpful' }, headers: { Origin: 'https://shop.example' } });
    assert.equal(rated.status, 200);
    assert.deepEqual(rated.json, {});
    assert.equal(rated.headers.get('access-control-allow-origin'), 'https://shop.example');
    assert.equal((await call(path, { method: 'POST', body: { feedback: 'like' }, auth: true })).status, 200);
    assert.deepEqual((await record(client.conversationId)).metadata.feedback, { likes: 2, dislikes: 1, rating: 4, comment: 'Helpful' });

    for (const [body, loc, type] of /** @type {[unknown, (string|number)[], string][]} */ ([
      [{ rating: 6 }, ['body', 'rating'], 'less_than_equal'],
      [{ rating: 0 }, ['body', 'rating'], 'greater_than_equal'],
      [{ rating: 2.5 }, ['body', 'rating'], 'int_from_float'],
      [{ rating: '5' }, ['body', 'rating'], 'int_type'],
      [{ rating: 5, comment: 'x'.repeat(2001) }, ['body', 'comment'], 'string_too_long'],
      [{ feedback: 'meh' }, ['body', 'feedback'], 'enum'],
      [{}, ['body', 'rating'], 'missing'],
      ['text', ['body'], 'model_attributes_type'],
    ])) {
      const bad = await call(path, { method: 'POST', body });
      assert.equal(bad.status, 422, JSON.stringify(body));
      assert.deepEqual([bad.json.detail[0].loc, bad.json.detail[0].type], [loc, type]);
    }
    const unknown = await call('/v1/voiceai/conversations/conv_nope/feedback', { method: 'POST', body: { rating: 5 } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.detail.status, 'conversation_not_found');

    const noKey = await call(`/v1/voiceai/conversations/${client.conversationId}`);
    assert.equal(noKey.status, 401);
    assert.equal(noKey.json.detail.status, 'invalid_api_key');
    assert.equal((await call('/v1/voiceai/conversations/conv_nope', { auth: true })).status, 404);
  });

  test('close() ends open conversations with 1001 and the process can exit', async () => {
    const own = await startService({ port: 0, log: () => {}, replyDelayMs: 1, pingIntervalMs: 20 });
    const ws = new WebSocket(`${own.url.replace('http:', 'ws:')}/v1/voiceai/conversation?agent_id=agent_minimal`);
    const closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'conversation_initiation_client_data' }));
    await new Promise((resolve) => ws.once('message', resolve));
    const [conversationId] = own.service.conversations.keys();
    await own.close();
    assert.equal(await closed, 1001);
    const data = own.service.conversations.get(conversationId);
    assert.equal(data?.status, 'done');
    assert.equal(data?.metadata.termination_reason, 'service_shutdown');
  });
});

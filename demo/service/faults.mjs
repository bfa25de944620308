// Fault injection of the reference Voice Agent Service (README.md, "Fault switches"): a test switch, not part of the
// service interface. `PUT /v1/dev/faults` sets the faults of the next widget reads and conversations,
// `DELETE /v1/dev/faults` clears them. This module validates the switch body and keeps the faults; service.mjs
// applies them (the widget read and the conversation socket).

import { isPlainObject } from './validate.mjs';

/** Longest `delay_ms` / `close_after_ms` / `garbage_every_ms` accepted, ms. */
export const MAX_FAULT_MS = 30000;
/** Shortest `garbage_every_ms` accepted, ms (keeps a test from flooding the socket). */
export const MIN_GARBAGE_MS = 5;
/** The fastest `ping_every_ms` a fault may ask for. */
export const MIN_PING_MS = 50;

/**
 * @typedef {import('./validate.mjs').ValidationError} ValidationError
 *
 * @typedef {object} WidgetFault  applied to `GET /v1/convai/agents/{agent_id}/widget`
 * @property {string} [agent_id]  only reads of this agent (default: every read)
 * @property {number} [status]    answer with this HTTP status (400..599, or 200 with `body`)
 * @property {string} [body]      answer with this body text as `application/json` (default for `status`: a JSON detail)
 * @property {number} [delay_ms]  answer after this many ms (then the status/body above, or the normal answer)
 * @property {true} [hang]        never answer until the faults are cleared (then the normal answer) or the service closes
 * @property {number} [times]     the next n matching reads only (default: until cleared)
 *
 * @typedef {object} SocketFault  applied to the next conversation socket(s)
 * @property {string} [agent_id]
 * @property {true} [refuse]      reject the upgrade with HTTP 503
 * @property {number} [close_after_ms]  close this many ms after the initiation with `code` / `reason`
 * @property {number} [code]      default 1011
 * @property {string} [reason]    default 'injected fault'
 * @property {number} [garbage_every_ms] from the initiation on, send a garbage frame this often
 * @property {{code: number, message: string}} [error_message] send an `error` message after the first agent message
 * @property {true} [silent]      after conversation_initiation_metadata send nothing at all
 * @property {number} [ping_every_ms]   ping at this pace instead of the service's own
 * @property {number} [part_delay_ms]   stream each reply's parts this many ms apart instead of the service's `replyDelayMs`
 * @property {number} [silent_after_ms] this many ms after the initiation, go silent (nothing at all from then on)
 * @property {number} [times]     the next n matching conversations only (default: until cleared)
 *
 * @typedef {{widget?: WidgetFault, socket?: SocketFault}} Faults
 */

/**
 * The garbage frames of `garbage_every_ms`, sent in turn: not JSON, JSON that is not an object, an object without
 * `type`, and unknown types (PROTOCOL.md section 3: a client ignores them all).
 */
export const GARBAGE_FRAMES = Object.freeze([
  'this is not JSON {',
  '{"type":"x_injected_unknown","x_injected_unknown_event":{"event_id":1}}',
  '[1,2,3]',
  '{"no_type":true}',
  '{"type":"agent_response_v2","agent_response_event":{"agent_response":"garbage: must not be shown","event_id":9999}}',
  '\u0000\u0001 binary-looking text',
]);

/** @param {number} code a close code `ws` may send: 1000-1014 except 1004-1006, or 3000-4999 */
const validCloseCode = (code) => (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);

/**
 * Checks the body of `PUT /v1/dev/faults`. Unknown fields are refused (a misspelt fault would silently do nothing).
 * @param {unknown} body
 * @returns {{faults: Faults, errors: ValidationError[]}}
 */
export function parseFaults(body) {
  /** @type {ValidationError[]} */
  const errors = [];
  /** @param {(string|number)[]} loc @param {string} msg @param {string} type @param {unknown} input */
  const bad = (loc, msg, type, input) => errors.push({ loc: ['body', ...loc], msg, type, input });
  /** @param {unknown} value @param {(string|number)[]} loc @param {number} min @param {number} max */
  const integer = (value, loc, min, max) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) bad(loc, 'Input should be a valid integer', 'int_type', value);
    else if (value < min || value > max) bad(loc, `Input should be between ${min} and ${max}`, 'range', value);
  };
  /** @param {unknown} value @param {(string|number)[]} loc */
  const isTrue = (value, loc) => {
    if (value !== true) bad(loc, 'Input should be true (leave the field out for false)', 'literal_error', value);
  };
  /** @param {unknown} value @param {(string|number)[]} loc @param {number} max */
  const text = (value, loc, max) => {
    if (typeof value !== 'string') bad(loc, 'Input should be a valid string', 'string_type', value);
    else if (value.length > max) bad(loc, `String should have at most ${max} characters`, 'string_too_long', value.length);
  };
  /**
   * @param {unknown} value @param {string} name
   * @param {Record<string, (value: unknown, loc: (string|number)[]) => void>} fields
   */
  const section = (value, name, fields) => {
    if (!isPlainObject(value)) return bad([name], 'Input should be a valid dictionary', 'dict_type', value);
    for (const [key, entry] of Object.entries(value)) {
      if (Object.hasOwn(fields, key)) fields[key](entry, [name, key]);
      else bad([name, key], 'Extra inputs are not permitted', 'extra_forbidden', entry);
    }
  };
  const common = {
    agent_id: (/** @type {unknown} */ v, /** @type {(string|number)[]} */ loc) => text(v, loc, 256),
    times: (/** @type {unknown} */ v, /** @type {(string|number)[]} */ loc) => integer(v, loc, 1, 1000),
  };

  if (!isPlainObject(body)) {
    bad([], 'Input should be a valid dictionary', 'dict_type', body);
    return { faults: {}, errors };
  }
  for (const [key, value] of Object.entries(body)) {
    if (key === 'widget') {
      section(value, key, {
        ...common,
        status: (v, loc) => integer(v, loc, 200, 599),
        body: (v, loc) => text(v, loc, 65536),
        delay_ms: (v, loc) => integer(v, loc, 0, MAX_FAULT_MS),
        hang: isTrue,
      });
    } else if (key === 'socket') {
      section(value, key, {
        ...common,
        refuse: isTrue,
        close_after_ms: (v, loc) => integer(v, loc, 0, MAX_FAULT_MS),
        code: (v, loc) => {
          integer(v, loc, 1000, 4999);
          if (typeof v === 'number' && Number.isInteger(v) && v >= 1000 && v <= 4999 && !validCloseCode(v)) {
            bad(loc, 'Input should be a close code a server may send (1000-1014 except 1004-1006, or 3000-4999)', 'close_code', v);
          }
        },
        reason: (v, loc) => {
          text(v, loc, 123);
          if (typeof v === 'string' && Buffer.byteLength(v) > 123) bad(loc, 'A close reason is at most 123 bytes', 'string_too_long', v);
        },
        garbage_every_ms: (v, loc) => integer(v, loc, MIN_GARBAGE_MS, MAX_FAULT_MS),
        error_message: (v, loc) => {
          if (!isPlainObject(v)) return bad(loc, 'Input should be a valid dictionary', 'dict_type', v);
          integer(v.code, [...loc, 'code'], 0, 65535);
          text(v.message, [...loc, 'message'], 2000);
        },
        silent: isTrue,
        ping_every_ms: (v, loc) => integer(v, loc, MIN_PING_MS, MAX_FAULT_MS),
        part_delay_ms: (v, loc) => integer(v, loc, 0, MAX_FAULT_MS),
        silent_after_ms: (v, loc) => integer(v, loc, 0, MAX_FAULT_MS),
      });
    } else bad([key], 'Extra inputs are not permitted (known: widget, socket)', 'extra_forbidden', value);
  }
  const widget = isPlainObject(body.widget) ? body.widget : undefined;
  if (widget && widget.status === 200 && widget.body === undefined) bad(['widget', 'status'], 'status 200 needs a body', 'value_error', 200);
  /** @type {Faults} */
  const faults = {};
  if (errors.length === 0) {
    if (body.widget) faults.widget = structuredClone(body.widget);
    if (body.socket) faults.socket = structuredClone(body.socket);
  }
  return { faults, errors };
}

/**
 * The faults in force and the widget reads they hold (`delay_ms`, `hang`).
 * @param {(line: string) => void} log
 */
export function createFaults(log) {
  /** @type {Faults} */
  let faults = {};
  /** Held widget reads: each settles with 'elapsed' (its delay passed), 'cleared' (faults cleared) or 'gone' (client left / service closed). */
  /** @type {Set<(outcome: 'elapsed' | 'cleared' | 'gone') => void>} */
  const held = new Set();

  /** @param {'cleared' | 'gone'} outcome */
  const releaseAll = (outcome) => {
    for (const settle of [...held]) settle(outcome);
  };

  /**
   * Takes the fault of `kind` for one read or conversation of `agentId`, counting down its `times`.
   * @template {'widget' | 'socket'} K @param {K} kind @param {string} agentId @returns {Faults[K] | null}
   */
  function take(kind, agentId) {
    const fault = faults[kind];
    if (!fault || (fault.agent_id !== undefined && fault.agent_id !== agentId)) return null;
    if (fault.times !== undefined) {
      fault.times -= 1;
      if (fault.times <= 0) delete faults[kind];
    }
    log(`[service] fault injected (${kind}, agent ${JSON.stringify(agentId)}): ${JSON.stringify(fault)}`);
    return /** @type {Faults[K]} */ (structuredClone(fault));
  }

  return {
    /** The faults in force (a copy; `times` is what is left). */
    get current() {
      return structuredClone(faults);
    },
    /** Replaces the faults; held reads are released and answered normally. @param {Faults} next */
    set(next) {
      releaseAll('cleared');
      faults = structuredClone(next);
    },
    /** Clears every fault; held reads are released and answered normally. */
    clear() {
      releaseAll('cleared');
      faults = {};
    },
    /** @param {string} agentId */
    takeWidget: (agentId) => take('widget', agentId),
    /** @param {string} agentId */
    takeSocket: (agentId) => take('socket', agentId),
    /**
     * Holds a response for `ms` (or, without `ms`, until the faults are cleared), leaving no timer or listener behind.
     * @param {import('node:http').ServerResponse} res @param {number} [ms]
     * @returns {Promise<'elapsed' | 'cleared' | 'gone'>} 'gone' when the client went away or the service closed
     */
    hold(res, ms) {
      return new Promise((resolve) => {
        /** @param {'elapsed' | 'cleared' | 'gone'} outcome */
        const settle = (outcome) => {
          held.delete(settle);
          clearTimeout(timer);
          res.off('close', onClose);
          resolve(outcome);
        };
        const onClose = () => settle('gone');
        const timer = ms === undefined ? undefined : setTimeout(() => settle('elapsed'), ms);
        res.on('close', onClose);
        held.add(settle);
      });
    },
    /** How many reads are held now (for tests of the service). */
    get heldCount() {
      return held.size;
    },
    /** The service closes: clears the faults and ends every held read without an answer. */
    close() {
      faults = {};
      releaseAll('gone');
    },
  };
}

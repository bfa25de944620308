// The start of a conversation: conversation_initiation_client_data makes the conversation record, answers with
// conversation_initiation_metadata, starts the injected timed faults, sends the first message and starts the pings.

import { WebSocket } from 'ws';
import { GARBAGE_FRAMES } from '../faults.mjs';
import { DEFAULT_AUDIO_FORMAT, audioFormat, cloneJson, randomHex } from '../records.mjs';
import { fillDynamicVariables } from '../script.mjs';
import { parseAudioFormat } from '../speech.mjs';
import { isPlainObject } from '../validate.mjs';
import { createVad } from '../vad.mjs';
import { addTranscript, later, send } from './session.mjs';

/**
 * @typedef {import('./session.mjs').Session} Session
 * @typedef {import('../records.mjs').Json} Json
 * @typedef {import('../records.mjs').AgentRecord} AgentRecord
 * @typedef {import('../records.mjs').ConversationRecord} ConversationRecord
 * @typedef {import('../records.mjs').TranscriptEntry} TranscriptEntry
 */

/**
 * The initiation of a service's conversations.
 * @param {import('../context.mjs').ServiceContext} ctx
 * @param {ReturnType<typeof import('./speaking.mjs').createSpeaking>['speak']} speak
 */
export function createInitiation({ conversations, pingIntervalMs, log }, speak) {
  /**
   * Starts the timed faults of a conversation (`close_after_ms`, `garbage_every_ms`); their timers are the
   * session's, cleared when it ends.
   * @param {Session} session
   */
  function startTimedFaults(session) {
    const fault = session.fault;
    if (!fault) return;
    if (fault.close_after_ms !== undefined) {
      later(session, () => {
        const code = fault.code ?? 1011;
        const reason = fault.reason ?? 'injected fault';
        if (code === 1000) session.endedBy = 'agent_ended';
        else session.error = { code, reason };
        log(`[service] ${session.label}: injected close ${code} (${reason})`);
        if (session.ws.readyState === WebSocket.OPEN) session.ws.close(code, reason);
      }, fault.close_after_ms);
    }
    if (fault.garbage_every_ms !== undefined) {
      let index = 0;
      const timer = setInterval(() => {
        if (session.ws.readyState !== WebSocket.OPEN) return;
        session.ws.send(GARBAGE_FRAMES[index++ % GARBAGE_FRAMES.length]);
      }, fault.garbage_every_ms);
      session.timers.add(timer);
    }
    // A server that pings (at `ping_every_ms`) and then goes silent: nothing at all from `silent_after_ms` on.
    if (fault.silent_after_ms !== undefined) later(session, () => void (session.silenced = true), fault.silent_after_ms);
  }

  /** @param {Session} session */
  function sendPing(session) {
    if (!session.record) return;
    session.pingId += 1;
    session.record.metadata.pings_sent += 1;
    send(session, { type: 'ping', ping_event: { event_id: session.pingId, ping_ms: null } });
  }

  /** @param {Session} session */
  function startPings(session) {
    sendPing(session);
    const timer = setInterval(() => sendPing(session), session.fault?.ping_every_ms ?? pingIntervalMs);
    session.timers.add(timer);
  }

  /** @param {Session} session @param {Json} message */
  function initiate(session, message) {
    const agent = /** @type {AgentRecord} */ (session.agent);
    const cc = agent.conversation_config ?? {};
    const override = isPlainObject(message.conversation_config_override) ? message.conversation_config_override : {};
    const dynamicVariables = isPlainObject(message.dynamic_variables) ? message.dynamic_variables : {};
    const overrideAgent = isPlainObject(override.agent) ? override.agent : {};
    const overrideConversation = isPlainObject(override.conversation) ? override.conversation : {};
    const mainLanguage = [overrideAgent.language, cc.agent?.language].find((v) => typeof v === 'string' && v !== '') ?? 'en';
    const textOnly = [overrideConversation.text_only, cc.conversation?.text_only].find((v) => typeof v === 'boolean') ?? false;
    const outputFormat = audioFormat(cc.tts?.agent_output_audio_format, DEFAULT_AUDIO_FORMAT);
    const inputFormat = audioFormat(cc.asr?.user_input_audio_format, DEFAULT_AUDIO_FORMAT);
    // Spoken and listened to unless the initiation or the agent asks for text only.
    session.voice = overrideConversation.text_only !== true && cc.conversation?.text_only !== true;
    session.outputFormat = outputFormat;
    session.inputFormat = inputFormat;
    session.vad = session.voice ? createVad(parseAudioFormat(inputFormat).sampleRate) : null;

    let conversationId;
    do conversationId = `conv_${randomHex(10)}`;
    while (conversations.has(conversationId));
    session.startedMs = Date.now();
    session.label = `conversation ${conversationId}`;
    /** @type {ConversationRecord} */
    const record = {
      agent_id: agent.agent_id,
      agent_name: agent.name ?? null,
      conversation_id: conversationId,
      status: 'in-progress',
      transcript: [],
      metadata: {
        start_time_unix_secs: Math.floor(session.startedMs / 1000),
        call_duration_secs: 0,
        main_language: mainLanguage,
        text_only: textOnly,
        termination_reason: null,
        feedback: { likes: 0, dislikes: 0, rating: null, comment: null },
        pings_sent: 0,
        pongs_received: 0,
        user_audio_bytes: 0,
      },
      has_audio: false,
      has_user_audio: false,
      has_response_audio: false,
      user_id: typeof message.user_id === 'string' ? message.user_id : null,
      conversation_initiation_client_data: {
        conversation_config_override: cloneJson(override),
        custom_llm_extra_body: isPlainObject(message.custom_llm_extra_body) ? cloneJson(message.custom_llm_extra_body) : {},
        user_id: typeof message.user_id === 'string' ? message.user_id : null,
        source_info: isPlainObject(message.source_info) ? cloneJson(message.source_info) : {},
        dynamic_variables: cloneJson(dynamicVariables),
      },
    };
    session.record = record;
    conversations.set(conversationId, record);
    log(`[service] ${session.label}: started with agent ${agent.agent_id}`);

    send(session, {
      type: 'conversation_initiation_metadata',
      conversation_initiation_metadata_event: {
        conversation_id: conversationId,
        agent_output_audio_format: outputFormat,
        user_input_audio_format: inputFormat,
      },
    });

    startTimedFaults(session);
    if (session.fault?.silent) return; // no first message, no pings

    const template = typeof overrideAgent.first_message === 'string'
      ? overrideAgent.first_message
      : typeof cc.agent?.first_message === 'string' ? cc.agent.first_message : '';
    const placeholders = isPlainObject(cc.agent?.dynamic_variables?.dynamic_variable_placeholders)
      ? cc.agent.dynamic_variables.dynamic_variable_placeholders
      : {};
    const firstMessage = fillDynamicVariables(template, { ...placeholders, ...dynamicVariables });
    if (firstMessage !== '') {
      session.eventId += 1;
      send(session, { type: 'agent_response', agent_response_event: { agent_response: firstMessage, event_id: session.eventId } });
      session.agentEventIds.add(session.eventId);
      /** @type {TranscriptEntry} */
      const entry = { role: 'agent', message: firstMessage, time_in_call_secs: 0, interrupted: false };
      addTranscript(session, entry);
      session.agentEntries.set(session.eventId, entry);
      speak(session, session.eventId, firstMessage);
    }
    startPings(session);
  }

  return { initiate };
}

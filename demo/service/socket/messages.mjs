// The client's messages of a conversation that has started (PROTOCOL.md 4): user turns, contextual updates,
// pongs, tool results, feedback and user audio.

import { addTranscript, secondsInCall } from './session.mjs';

/**
 * @typedef {import('./session.mjs').Session} Session
 * @typedef {import('../records.mjs').Json} Json
 * @typedef {import('../records.mjs').ConversationRecord} ConversationRecord
 */

/**
 * The message handling of a service's conversations.
 * @param {import('../context.mjs').ServiceContext} ctx
 * @param {{queueReply: ReturnType<typeof import('./reply.mjs').createReplies>['queueReply'],
 *   listen: ReturnType<typeof import('./listening.mjs').createListening>['listen']}} parts
 */
export function createMessageHandler({ log }, { queueReply, listen }) {
  /** @param {Session} session @param {Json} message */
  function handleMessage(session, message) {
    const record = /** @type {ConversationRecord} */ (session.record);
    switch (message.type) {
      case 'user_message': {
        if (typeof message.text !== 'string' || message.text.trim() === '') {
          log(`[service] ${session.label}: ignored a user_message without text`);
          return;
        }
        const text = message.text;
        addTranscript(session, { role: 'user', message: text, time_in_call_secs: secondsInCall(session), interrupted: false });
        queueReply(session, text);
        return;
      }
      case 'contextual_update':
        if (typeof message.text !== 'string') {
          log(`[service] ${session.label}: ignored a contextual_update without text`);
          return;
        }
        addTranscript(session, {
          role: 'user', message: message.text, time_in_call_secs: secondsInCall(session), interrupted: false, source: 'contextual_update',
        });
        return;
      case 'user_activity':
        return;
      case 'pong':
        if (Number.isInteger(message.event_id) && message.event_id >= 1 && message.event_id <= session.pingId) {
          record.metadata.pongs_received += 1;
        } else {
          log(`[service] ${session.label}: ignored a pong for an unknown ping ${JSON.stringify(message.event_id)}`);
        }
        return;
      case 'client_tool_result': {
        const finish = typeof message.tool_call_id === 'string' ? session.pendingTools.get(message.tool_call_id) : undefined;
        if (!finish) {
          log(`[service] ${session.label}: ignored a result for an unknown tool call ${JSON.stringify(message.tool_call_id)}`);
          return;
        }
        finish({ result: message.result, isError: message.is_error === true });
        return;
      }
      case 'feedback': {
        const { score, event_id: eventId } = message;
        if ((score !== 'like' && score !== 'dislike') || !session.agentEventIds.has(eventId) || session.feedbackEventIds.has(eventId)) {
          log(`[service] ${session.label}: ignored feedback ${JSON.stringify(message)}`);
          return;
        }
        session.feedbackEventIds.add(eventId);
        if (score === 'like') record.metadata.feedback.likes += 1;
        else record.metadata.feedback.dislikes += 1;
        return;
      }
      case 'conversation_initiation_client_data':
        log(`[service] ${session.label}: ignored a second conversation_initiation_client_data`);
        return;
      case undefined:
        if (typeof message.user_audio_chunk === 'string') {
          const bytes = Buffer.from(message.user_audio_chunk, 'base64');
          record.metadata.user_audio_bytes += bytes.length;
          record.has_user_audio = true;
          record.has_audio = true;
          if (session.voice) listen(session, bytes);
          return;
        }
      // fall through
      default:
        log(`[service] ${session.label}: ignored a message of unknown type ${JSON.stringify(message.type)}`);
    }
  }

  return { handleMessage };
}

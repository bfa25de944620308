// The conversation endpoints: the record read (API key) and the end-of-call feedback (public).

import { conversationNotFound, readValidBody, sendJson } from '../http-helpers.mjs';
import { validateFeedback } from '../validate.mjs';

/**
 * The conversation routes.
 * @param {import('../context.mjs').ServiceContext} ctx
 * @returns {import('../http-helpers.mjs').Route[]}
 */
export function conversationRoutes({ conversations, sessions, authorised, log }) {
  return [
    {
      pattern: /^\/v1\/voiceai\/conversations\/([^/]+)\/feedback$/,
      methods: {
        // Public: the widget posts end-of-call feedback without an API key (one that is sent is not checked).
        async POST(req, res, [conversationId]) {
          const body = await readValidBody(req, res, validateFeedback);
          if (!body) return;
          const record = conversations.get(conversationId);
          if (!record) return conversationNotFound(req, res, conversationId);
          const feedback = record.metadata.feedback;
          if (body.feedback === 'like') feedback.likes += 1;
          if (body.feedback === 'dislike') feedback.dislikes += 1;
          if (typeof body.rating === 'number') feedback.rating = body.rating;
          if (typeof body.comment === 'string') feedback.comment = body.comment;
          log(`[service] conversation ${conversationId}: feedback ${JSON.stringify(body)}`);
          sendJson(req, res, 200, {});
        },
      },
    },
    {
      pattern: /^\/v1\/voiceai\/conversations\/([^/]+)$/,
      methods: {
        GET(req, res, [conversationId]) {
          if (!authorised(req, res)) return;
          const record = conversations.get(conversationId);
          if (!record) return conversationNotFound(req, res, conversationId);
          const session = [...sessions].find((s) => s.record === record);
          if (session) record.metadata.call_duration_secs = Math.floor((Date.now() - session.startedMs) / 1000);
          sendJson(req, res, 200, record);
        },
      },
    },
  ];
}

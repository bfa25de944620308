// WRONG: a misspelt property (`dynamicVariable` for `dynamicVariables`).
import type {} from 'voice-agent-widget/react';

export const misspelt = <voice-agent-widget agent-id="agent_demo_support" dynamicVariable={{ a: 1 }} />;

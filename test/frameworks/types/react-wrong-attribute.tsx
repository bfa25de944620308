// WRONG: React sets `dynamic-variables` (no property of that name) as an attribute: it takes the JSON string, not an
// object (which would arrive as "[object Object]"); the object goes to the property `dynamicVariables`.
import type {} from 'voice-agent-widget/react';

export const objectAttribute = <voice-agent-widget agent-id="agent_demo_support" dynamic-variables={{ a: 1 }} />;

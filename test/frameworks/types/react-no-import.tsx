// WITHOUT the types' import, React does not know the element: what `import type {} from 'voice-agent-widget/react'` fixes.
export const unknownElement = <voice-agent-widget agent-id="agent_demo_support" />;

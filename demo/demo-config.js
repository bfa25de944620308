// The demo server's /demo-config.json ({serviceUrl, apiKey, agents}), read once by each demo page.

/**
 * @returns {Promise<{serviceUrl: string, apiKey?: string, agents?: {agent_id: string, name: string}[]}>}
 * @throws Error with a message a person can act on (the page was not started with npm run demo)
 */
export async function loadDemoConfig() {
  try {
    const response = await fetch('/demo-config.json', { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.json();
  } catch (error) {
    throw new Error(`Could not read /demo-config.json (${error instanceof Error ? error.message : String(error)}). Start the page with npm run demo.`);
  }
}

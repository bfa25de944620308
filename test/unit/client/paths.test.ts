import { expect } from '@open-wc/testing';
import { MAX_AGENT_ID_LENGTH, normalizeServerUrl, parseSignedUrl, serviceEndpoint } from '../../../src/client/index.js';

const SIGNED = 'wss://private.test:8443/v1/voiceai/conversation?agent_id=agent_p&conversation_signature=sig_1';
const DEFAULT_ORIGIN = 'https://cdn.test';

describe('parseSignedUrl', () => {
  it('reads a ws(s) URL with agent_id and conversation_signature', () => {
    expect(parseSignedUrl(SIGNED)).to.deep.equal({ url: SIGNED, agentId: 'agent_p', signature: 'sig_1' });
    expect(parseSignedUrl('ws://127.0.0.1:8787/v1/voiceai/conversation?conversation_signature=a%20b')).to.deep.equal({
      url: 'ws://127.0.0.1:8787/v1/voiceai/conversation?conversation_signature=a%20b', agentId: '', signature: 'a b',
    });
  });

  it('refuses what is not a URL, not ws(s), without a signature, or with credentials', () => {
    expect(() => parseSignedUrl('not a url')).to.throw('signed-url "not a url" is not a URL');
    const notSigned = /^signed-url must be a ws\(s\) URL with a conversation_signature$/;
    expect(() => parseSignedUrl('https://private.test/?agent_id=a&conversation_signature=s')).to.throw(notSigned);
    expect(() => parseSignedUrl('wss://private.test/?agent_id=a')).to.throw(notSigned);
    expect(() => parseSignedUrl('wss://private.test/?agent_id=a&conversation_signature=')).to.throw(notSigned);
    expect(() => parseSignedUrl('wss://user:secret@private.test/?conversation_signature=s')).to.throw(notSigned);
  });
});

describe('serviceEndpoint', () => {
  it('takes the signed URL\'s origin as the server and its agent, and opens the socket on the signed URL', () => {
    expect(serviceEndpoint({ serverUrl: '', agentId: '', signedUrl: SIGNED }, DEFAULT_ORIGIN)).to.deep.equal({
      serverUrl: 'https://private.test:8443', agentId: 'agent_p', socketUrl: SIGNED, signature: 'sig_1',
    });
    expect(serviceEndpoint({ serverUrl: '', agentId: '', signedUrl: 'ws://local.test/c?agent_id=a&conversation_signature=s' }, DEFAULT_ORIGIN).serverUrl)
      .to.equal('http://local.test');
  });

  it('lets server-url and agent-id win over the signed URL', () => {
    const endpoint = serviceEndpoint({ serverUrl: ' http://127.0.0.1:8787/prefix/ ', agentId: ' agent_x ', signedUrl: SIGNED }, DEFAULT_ORIGIN);
    expect(endpoint).to.deep.equal({ serverUrl: 'http://127.0.0.1:8787/prefix', agentId: 'agent_x', socketUrl: SIGNED, signature: 'sig_1' });
  });

  it('uses the default origin without server-url or signed URL, and builds the public socket URL', () => {
    expect(serviceEndpoint({ serverUrl: '', agentId: 'agent 1', signedUrl: null }, DEFAULT_ORIGIN)).to.deep.equal({
      serverUrl: 'https://cdn.test', agentId: 'agent 1', socketUrl: 'wss://cdn.test/v1/voiceai/conversation?agent_id=agent%201', signature: '',
    });
    expect(serviceEndpoint({ serverUrl: 'http://127.0.0.1:8787', agentId: 'a', signedUrl: null }, DEFAULT_ORIGIN).socketUrl)
      .to.equal('ws://127.0.0.1:8787/v1/voiceai/conversation?agent_id=a');
  });

  it('throws naming the attribute: agent-id missing or too long, a bad signed-url or server-url', () => {
    expect(() => serviceEndpoint({ serverUrl: '', agentId: '   ', signedUrl: null }, DEFAULT_ORIGIN)).to.throw('the agent-id attribute is missing');
    const tooLong = 'a'.repeat(MAX_AGENT_ID_LENGTH + 1);
    expect(() => serviceEndpoint({ serverUrl: '', agentId: tooLong, signedUrl: null }, DEFAULT_ORIGIN)).to.throw(`agent-id is longer than ${MAX_AGENT_ID_LENGTH} characters`);
    expect(serviceEndpoint({ serverUrl: '', agentId: 'a'.repeat(MAX_AGENT_ID_LENGTH), signedUrl: null }, DEFAULT_ORIGIN).agentId).to.have.length(MAX_AGENT_ID_LENGTH);
    expect(() => serviceEndpoint({ serverUrl: '', agentId: 'a', signedUrl: 'https://x.test/?conversation_signature=s' }, DEFAULT_ORIGIN)).to.throw(/signed-url/);
    expect(() => serviceEndpoint({ serverUrl: 'javascript:alert(1)', agentId: 'a', signedUrl: null }, DEFAULT_ORIGIN)).to.throw('server-url must be http(s), not javascript:');
  });
});

describe('normalizeServerUrl', () => {
  it('keeps the path, drops trailing slashes, query and hash, and lower-cases scheme and host', () => {
    expect(normalizeServerUrl('https://service.test/')).to.equal('https://service.test');
    expect(normalizeServerUrl('HTTP://Service.TEST:8787/prefix//?key=1#top')).to.equal('http://service.test:8787/prefix');
    expect(normalizeServerUrl('https://service.test:443/a/b')).to.equal('https://service.test/a/b');
  });

  it('refuses a relative URL, another scheme and credentials', () => {
    expect(() => normalizeServerUrl('/relative/path')).to.throw(TypeError, 'server-url "/relative/path" is not an absolute URL');
    expect(() => normalizeServerUrl('ftp://service.test')).to.throw(TypeError, 'server-url must be http(s), not ftp:');
    expect(() => normalizeServerUrl('wss://service.test')).to.throw(TypeError, 'not wss:');
    expect(() => normalizeServerUrl('https://user:pw@service.test')).to.throw(TypeError, 'must not hold a username or password');
  });
});

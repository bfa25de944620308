import { expect } from '@open-wc/testing';
import {
  MICROPHONE_CONSTRAINTS, browserFamily, microphoneBlocked, microphoneErrorKind, microphonePermission, requestMicrophone,
} from '../../../src/audio/index.js';

describe('microphoneErrorKind', () => {
  it('maps each getUserMedia DOMException name to what the visitor is told', () => {
    const kinds = Object.fromEntries(
      ['NotAllowedError', 'SecurityError', 'NotFoundError', 'NotReadableError', 'OverconstrainedError', 'AbortError', 'InvalidStateError', 'TypeError']
        .map((name) => [name, microphoneErrorKind(new DOMException('message', name))]),
    );
    expect(kinds).to.deep.equal({
      NotAllowedError: 'denied',
      SecurityError: 'denied',
      NotFoundError: 'no-microphone',
      NotReadableError: 'in-use',
      OverconstrainedError: 'no-microphone',
      AbortError: 'failed',
      InvalidStateError: 'failed',
      TypeError: 'failed',
    });
  });

  it('reads errors of other shapes as failed', () => {
    expect(microphoneErrorKind(new TypeError("Cannot read properties of undefined (reading 'getUserMedia')"))).to.equal('failed');
    expect(microphoneErrorKind(undefined)).to.equal('failed');
    expect(microphoneErrorKind(null)).to.equal('failed');
    expect(microphoneErrorKind('NotAllowedError')).to.equal('failed');
    // An error-like object from another realm (a frame) is judged by its name alone.
    expect(microphoneErrorKind({ name: 'NotAllowedError' })).to.equal('denied');
  });
});

describe('microphoneBlocked', () => {
  it('finds nothing that rules the microphone out on the test page (a secure top-level page, no policy)', () => {
    expect(isSecureContext).to.equal(true);
    expect(microphoneBlocked()).to.equal(null);
  });

  it("reads a policy that blocks the microphone: the page's at the top (a Permissions-Policy header), else the iframe's", () => {
    const doc = document as Document & { featurePolicy?: unknown; permissionsPolicy?: unknown };
    const own = Object.getOwnPropertyDescriptor(doc, 'permissionsPolicy');
    // The engine's own object, if any, is shadowed by one that blocks, on this document only (a real header and real
    // iframes: test/permissions/).
    Object.defineProperty(doc, 'permissionsPolicy', { configurable: true, value: { allowsFeature: (feature: string) => feature !== 'microphone' } });
    try {
      expect(microphoneBlocked()).to.equal('blocked-page');
      Object.defineProperty(doc, 'permissionsPolicy', { configurable: true, value: { allowsFeature: () => { throw new Error('no'); } } });
      expect(microphoneBlocked(), 'a policy object that throws cannot tell').to.equal(null);
    } finally {
      if (own) Object.defineProperty(doc, 'permissionsPolicy', own);
      else delete doc.permissionsPolicy;
    }
  });
});

describe('microphonePermission', () => {
  it("gives the Permissions API's state of the microphone, or null where the engine has no such query", async () => {
    const state = await microphonePermission();
    expect([null, 'granted', 'denied', 'prompt']).to.include(state);
    const { query } = Permissions.prototype;
    Permissions.prototype.query = () => Promise.reject(new TypeError("'microphone' is not a valid value for enumeration PermissionName."));
    try {
      expect(await microphonePermission()).to.equal(null);
    } finally {
      Permissions.prototype.query = query;
    }
  });
});

describe('browserFamily', () => {
  it('tells whose site settings to open from real user agents: Chromium-based, Firefox, Safari (iOS browsers are Safari inside)', () => {
    const agents = {
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36': 'chromium',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 Edg/156.0.0.0': 'chromium',
      'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0': 'firefox',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.1 Safari/605.1.15': 'safari',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 26_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.1 Mobile/15E148 Safari/604.1': 'safari',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15': 'safari',
      '': 'chromium',
    };
    expect(Object.fromEntries(Object.keys(agents).map((agent) => [agent, browserFamily(agent)]))).to.deep.equal(agents);
  });
});

describe('requestMicrophone', () => {
  const { getUserMedia } = MediaDevices.prototype;
  let asked: (MediaStreamConstraints | undefined)[];
  beforeEach(() => {
    asked = [];
    // Refused at once: only the constraints asked for matter here (capture itself is tested in test/audio/).
    MediaDevices.prototype.getUserMedia = (constraints?: MediaStreamConstraints) => {
      asked.push(constraints);
      return Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    };
  });
  afterEach(() => (MediaDevices.prototype.getUserMedia = getUserMedia));

  it('asks for audio with echo cancellation, noise suppression and auto gain on', async () => {
    const error = await requestMicrophone().catch((e: unknown) => e);
    expect(microphoneErrorKind(error)).to.equal('denied');
    expect(asked).to.deep.equal([{ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } }]);
    expect(MICROPHONE_CONSTRAINTS).to.deep.equal({ echoCancellation: true, noiseSuppression: true, autoGainControl: true });
  });

  it('lets constraints override and add to the defaults, without changing them', async () => {
    await requestMicrophone({ echoCancellation: false, deviceId: { exact: 'mic-2' } }).catch(() => {});
    expect(asked).to.deep.equal([{ audio: { echoCancellation: false, noiseSuppression: true, autoGainControl: true, deviceId: { exact: 'mic-2' } } }]);
    expect(MICROPHONE_CONSTRAINTS.echoCancellation).to.equal(true);
  });
});

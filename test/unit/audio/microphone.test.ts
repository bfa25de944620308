import { expect } from '@open-wc/testing';
import { MICROPHONE_CONSTRAINTS, microphoneErrorKind, requestMicrophone } from '../../../src/audio/index.js';

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
      NotReadableError: 'no-microphone',
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

import { expect } from '@open-wc/testing';
import { captureWorkletSource, loadWorklets, playbackWorkletSource } from '../../../src/audio/index.js';

/**
 * A context whose AudioWorklet records each URL it is asked to load, after `delay(url)` ms, and refuses the ones in
 * `refused` (as a CSP refusal or a missing file would); Blob URLs made and revoked are recorded on the way through.
 */
function setUp(refused: (url: string) => boolean = () => false, delay = (url: string): number => (url.startsWith('blob:') ? 5 : 1)) {
  const loaded: string[] = [];
  const blobs = new Map<string, Blob>();
  const revoked: string[] = [];
  const { createObjectURL, revokeObjectURL } = URL;
  URL.createObjectURL = (object: Blob | MediaSource) => {
    const url = createObjectURL(object);
    blobs.set(url, object as Blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url);
    revokeObjectURL(url);
  };
  const addModule = async (url: string) => {
    await new Promise((resolve) => setTimeout(resolve, delay(url)));
    if (refused(url)) throw new DOMException(`refused: ${url}`, 'AbortError');
    loaded.push(url);
  };
  const context = { audioWorklet: { addModule } } as unknown as BaseAudioContext;
  const restore = () => Object.assign(URL, { createObjectURL, revokeObjectURL });
  /** The source text behind each Blob URL that was loaded. */
  const sources = () => Promise.all(loaded.filter((url) => blobs.has(url)).map((url) => blobs.get(url)!.text()));
  return { context, loaded, blobs, revoked, restore, sources };
}

const URLS = { capture: 'https://cdn.example/capture.js', playback: 'https://cdn.example/playback.js' };

describe('loadWorklets', () => {
  let t: ReturnType<typeof setUp>;
  afterEach(() => t.restore());

  it('without URLs loads both sources from Blob URLs, revoked once loaded', async () => {
    t = setUp();
    await loadWorklets(t.context, {});
    expect(t.blobs.size).to.equal(2);
    expect((await t.sources()).sort()).to.deep.equal([captureWorkletSource, playbackWorkletSource].sort());
    expect(t.revoked).to.have.members([...t.blobs.keys()]);
  });

  it('with URLs loads the files and makes no Blob URL (a strict CSP)', async () => {
    t = setUp();
    await loadWorklets(t.context, { workletUrls: URLS });
    expect(t.loaded).to.have.members([URLS.capture, URLS.playback]);
    expect(t.blobs.size).to.equal(0);
  });

  it('a file that fails rejects without workletFallback, and makes no Blob URL', async () => {
    t = setUp((url) => url === URLS.capture);
    const error = await loadWorklets(t.context, { workletUrls: URLS }).catch((e: unknown) => e);
    expect((error as Error).message).to.equal(`refused: ${URLS.capture}`);
    expect(t.blobs.size).to.equal(0);
  });

  it('a file that fails falls back to a Blob URL of its source with workletFallback', async () => {
    t = setUp((url) => url === URLS.playback);
    await loadWorklets(t.context, { workletUrls: URLS, workletFallback: true });
    expect(t.loaded.filter((url) => !url.startsWith('blob:'))).to.deep.equal([URLS.capture]);
    expect(await t.sources()).to.deep.equal([playbackWorkletSource]);
    expect(t.revoked).to.have.members([...t.blobs.keys()]);
  });

  it('revokes every Blob URL also when a load fails, a fallback still under way included', async () => {
    // Everything is refused: the capture file and its fallback fail first (6 ms); the playback file fails only at 20 ms,
    // and its fallback's Blob URL is made after that first failure.
    t = setUp(() => true, (url) => (url === URLS.playback ? 20 : url.startsWith('blob:') ? 5 : 1));
    const error = await loadWorklets(t.context, { workletUrls: URLS, workletFallback: true }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(DOMException);
    expect(t.blobs.size).to.equal(2);
    expect(t.revoked).to.have.members([...t.blobs.keys()]);
  });
});

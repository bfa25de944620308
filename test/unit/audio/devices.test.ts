import { expect } from '@open-wc/testing';
import { watchDevices, type DeviceList } from '../../../src/audio/index.js';

type Device = { deviceId: string; kind: MediaDeviceKind };

/** Lets the watch's reading of the list (promises only) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve));

/** A `navigator.mediaDevices` stand-in: `change(list)` sets its list, fires `devicechange` and lets the watch read it. */
class FakeDevices extends EventTarget implements DeviceList {
  reads = 0;
  constructor(public list: Device[]) {
    super();
  }
  async enumerateDevices() {
    this.reads++;
    return this.list;
  }
  async change(list: Device[]) {
    this.list = list;
    this.dispatchEvent(new Event('devicechange'));
    await settle();
  }
}

/** A microphone track stand-in: its `deviceId`, and `ended` fired by the test. */
const track = (deviceId: string) => Object.assign(new EventTarget(), { getSettings: () => ({ deviceId }) });

const MIC = { deviceId: 'mic-1', kind: 'audioinput' } as const;
const OTHER_MIC = { deviceId: 'mic-2', kind: 'audioinput' } as const;
const SPEAKERS = { deviceId: 'out-1', kind: 'audiooutput' } as const;
const HEADPHONES = { deviceId: 'out-2', kind: 'audiooutput' } as const;

describe('watchDevices', () => {
  let reports: string[];
  const callbacks = { onMicrophoneLost: () => reports.push('microphone'), onOutputLost: () => reports.push('output') };
  beforeEach(() => (reports = []));

  /** Watches `mic` among `devices`, once the first reading of the list is done. */
  async function watch(devices: FakeDevices, mic = track('mic-1')) {
    const release = watchDevices({ getAudioTracks: () => [mic] }, callbacks, devices);
    await settle();
    return { mic, release };
  }

  it('reports nothing for a change that leaves the microphone and an output in place', async () => {
    const devices = new FakeDevices([MIC, SPEAKERS]);
    const { release } = await watch(devices);
    await devices.change([MIC, OTHER_MIC, HEADPHONES]);
    await devices.change([MIC, HEADPHONES]);
    expect(reports).to.deep.equal([]);
    expect(devices.reads).to.equal(3);
    release();
  });

  it('reports the microphone lost when a change takes its device from the list', async () => {
    const devices = new FakeDevices([MIC, OTHER_MIC, SPEAKERS]);
    const { release } = await watch(devices);
    await devices.change([OTHER_MIC, SPEAKERS]);
    expect(reports).to.deep.equal(['microphone']);
    release();
  });

  it('reports the microphone lost when its track ends', async () => {
    const devices = new FakeDevices([MIC, SPEAKERS]);
    const { mic, release } = await watch(devices);
    mic.dispatchEvent(new Event('ended'));
    expect(reports).to.deep.equal(['microphone']);
    release();
  });

  it('reports the output lost when outputs go from some to none, and not again while there are none', async () => {
    const devices = new FakeDevices([MIC, SPEAKERS, HEADPHONES]);
    const { release } = await watch(devices);
    await devices.change([MIC, HEADPHONES]);
    expect(reports).to.deep.equal([]);
    await devices.change([MIC]);
    expect(reports).to.deep.equal(['output']);
    await devices.change([MIC, OTHER_MIC]);
    expect(reports).to.deep.equal(['output']);
    // An output comes back, then goes again: lost again.
    await devices.change([MIC, SPEAKERS]);
    await devices.change([MIC]);
    expect(reports).to.deep.equal(['output', 'output']);
    release();
  });

  it('reports no output lost where the browser lists no outputs at all (Firefox without setSinkId)', async () => {
    const devices = new FakeDevices([MIC]);
    const { release } = await watch(devices);
    await devices.change([MIC, OTHER_MIC]);
    await devices.change([MIC]);
    expect(reports).to.deep.equal([]);
    release();
  });

  it('a microphone lost outweighs an output lost in the same change', async () => {
    const devices = new FakeDevices([MIC, SPEAKERS]);
    const { release } = await watch(devices);
    await devices.change([]);
    expect(reports).to.deep.equal(['microphone']);
    release();
  });

  it('reports nothing after its release: no listener left, a list still being read dropped', async () => {
    const devices = new FakeDevices([MIC, SPEAKERS]);
    const { mic, release } = await watch(devices);
    void devices.change([]);
    release();
    await settle();
    mic.dispatchEvent(new Event('ended'));
    await devices.change([]);
    expect(reports).to.deep.equal([]);
    expect(devices.reads, 'no reading after the release').to.equal(2);
  });
});

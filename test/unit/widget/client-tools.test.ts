import { expect } from '@open-wc/testing';
import { ClientToolStore } from '../../../src/widget/client-tools.js';
import { findClientTool } from '../../../src/widget/find-client-tool.js';

describe('ClientToolStore and findClientTool', () => {
  it('keeps only functions as page tools, whatever it is given', () => {
    const store = new ClientToolStore();
    const tool = (): string => 'ok';
    store.page = { tool, text: 'not a function', nothing: null } as never;
    expect(Object.keys(store.page)).to.deep.equal(['tool']);
    store.page = 42 as never;
    expect(store.page).to.deep.equal({});
    store.handler = 'no' as never;
    expect(store.handler).to.equal(null);
  });

  it('finds the conversation\'s tool first, then the page\'s, then the handler, else none', async () => {
    const store = new ClientToolStore();
    expect(findClientTool(store, 'time')).to.equal(null);
    store.page = { time: () => 'page', cart: () => 'page cart' };
    store.conversation = { time: () => 'conversation' };
    store.handler = async (name) => `handler ${name}`;
    expect(await findClientTool(store, 'time')!({})).to.equal('conversation');
    expect(await findClientTool(store, 'cart')!({})).to.equal('page cart');
    expect(await findClientTool(store, 'other')!({ a: 1 })).to.equal('handler other');
    store.conversation = {};
    expect(await findClientTool(store, 'time')!({}), 'a new conversation replaces the last one\'s tools').to.equal('page');
  });

  it('finds own entries only: a tool named like an Object method is not on the prototype', () => {
    const store = new ClientToolStore();
    expect(findClientTool(store, 'toString')).to.equal(null);
    expect(findClientTool(store, 'constructor')).to.equal(null);
  });

  it('register adds one tool and returns its removal, which leaves a tool registered later under the name alone', () => {
    const store = new ClientToolStore();
    const first = (): string => 'first';
    const second = (): string => 'second';
    const removeFirst = store.register('time', first);
    expect(store.page['time']).to.equal(first);
    const removeSecond = store.register('time', second);
    removeFirst();
    expect(store.page['time'], 'the later tool stays').to.equal(second);
    removeSecond();
    expect(store.page).to.deep.equal({});
    expect(() => store.register('', first)).to.throw(TypeError);
    expect(() => store.register('x', 'no' as never)).to.throw(TypeError);
  });
});

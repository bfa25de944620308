import { expect } from '@open-wc/testing';
import { fillDynamicVariables, firstMessageFor, resolveWidgetConfig } from '../../../src/config/index.js';

describe('fillDynamicVariables', () => {
  it('fills {{name}} placeholders and leaves no placeholder for a missing variable', () => {
    expect(fillDynamicVariables('Hi {{customer_name}}! Order {{ order }}.', { customer_name: 'Ada', order: 42 })).to.equal('Hi Ada! Order 42.');
    expect(fillDynamicVariables('Hi {{customer_name}}!', {})).to.equal('Hi !');
  });
  it('does not read inherited properties as variables', () => {
    expect(fillDynamicVariables('{{constructor}}{{toString}}', {})).to.equal('');
  });
});

describe('firstMessageFor', () => {
  it('takes the preset first message of the language, else the configured one', () => {
    const config = resolveWidgetConfig({ first_message: 'Hello', language_presets: { de: { first_message: 'Hallo' } } }, () => {}, location.href);
    expect(firstMessageFor(config, 'de')).to.equal('Hallo');
    expect(firstMessageFor(config, 'en')).to.equal('Hello');
  });
});

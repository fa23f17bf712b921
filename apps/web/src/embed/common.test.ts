import { describe, expect, it } from 'vitest';
import {
  widgetLimits,
  widgetPublicIdPattern,
  widgetUnavailableMessage,
} from '@chorus/shared/api/widgets';
import { hexColor, messageType, publicIdPattern, textColorOn } from './common';
import { fallbackMessages } from './widget/api';
import { messageMaxLength } from './widget/app';

describe('what the widget bundles copy from the contract instead of importing it', () => {
  it('match the contract', () => {
    expect(publicIdPattern.source).toBe(widgetPublicIdPattern.source);
    expect(publicIdPattern.flags).toBe(widgetPublicIdPattern.flags);
    expect(fallbackMessages.unavailable).toBe(widgetUnavailableMessage);
    expect(messageMaxLength).toBe(widgetLimits.message);
  });
});

describe('colours', () => {
  it('keeps a hex colour and replaces anything else with the default', () => {
    expect(hexColor('#FF0000')).toBe('#FF0000');
    expect(hexColor('red')).toBe('#4f46e5');
    expect(hexColor('#fff')).toBe('#4f46e5');
    expect(hexColor('#123456;background:url(x)')).toBe('#4f46e5');
    expect(hexColor(undefined)).toBe('#4f46e5');
  });

  it('puts dark text on light colours and white text on dark ones', () => {
    expect(textColorOn('#ffffff')).toBe('#111827');
    expect(textColorOn('#facc15')).toBe('#111827');
    expect(textColorOn('#4f46e5')).toBe('#ffffff');
    expect(textColorOn('#000000')).toBe('#ffffff');
  });
});

describe('messageType', () => {
  it('reads only our own messages', () => {
    expect(messageType({ type: 'chorus:ready' })).toBe('chorus:ready');
    expect(messageType({ type: 'other:ready' })).toBeUndefined();
    expect(messageType('chorus:ready')).toBeUndefined();
    expect(messageType(null)).toBeUndefined();
  });
});

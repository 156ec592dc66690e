import { HARDWARE_TEXT_MAX_LENGTH, hardwareInfoSchema } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { clipHardwareText, readHardwareInfo } from './hardware.ts';

describe('readHardwareInfo', () => {
  it('reports what the server accepts', () => {
    expect(hardwareInfoSchema.safeParse(readHardwareInfo(4)).success).toBe(true);
  });

  it('clips long texts to the server’s bound without splitting a surrogate pair', () => {
    expect(clipHardwareText('short')).toBe('short');
    const long = `${'x'.repeat(HARDWARE_TEXT_MAX_LENGTH - 2)}🚀🚀🚀`;
    const clipped = clipHardwareText(long);
    expect(clipped.length).toBeLessThanOrEqual(HARDWARE_TEXT_MAX_LENGTH);
    expect(clipped).toBe(`${'x'.repeat(HARDWARE_TEXT_MAX_LENGTH - 2)}…`);
    expect(hardwareInfoSchema.safeParse({ cpu: clipped }).success).toBe(true);
  });
});

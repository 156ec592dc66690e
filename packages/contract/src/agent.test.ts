import { describe, expect, it } from 'vitest';
import { enrollmentCodeSchema } from './agent.ts';

describe('enrollmentCodeSchema', () => {
  it('accepts the code as shown or typed: any case, dashes and spaces', () => {
    for (const typed of ['ABCD-EFGH-JKMN', 'abcd-efgh-jkmn', 'ABCD EFGH JKMN', 'abcdefghjkmn']) {
      expect(enrollmentCodeSchema.parse(typed)).toBe('ABCDEFGHJKMN');
    }
  });

  it('refuses other lengths and letters the codes never use, naming the field', () => {
    for (const wrong of ['ABCD-EFGH', 'ABCD-EFGH-JKMN-P', 'ABCD-EFGH-JK0N', 'ABCD-EFGH-JKIN', '']) {
      const result = enrollmentCodeSchema.safeParse(wrong);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        'enrollment_code must be the 12-character code from Add Node, like ABCD-EFGH-JKMN',
      );
    }
  });
});

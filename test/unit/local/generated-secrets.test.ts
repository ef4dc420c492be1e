import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretValue, keptSecretValues } from '../../../bin/local/secrets-manager';

describe("the local stack's generated secrets, as CloudFormation generates and keeps them", () => {
  test('GenerateSecretString: its length and its exclusions, or its template with the string at its key', () => {
    const plain = generateSecretValue({ PasswordLength: 64, ExcludePunctuation: true });
    expect(plain).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(generateSecretValue({})).toHaveLength(32);
    expect(generateSecretValue({ PasswordLength: 40, ExcludeCharacters: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', ExcludePunctuation: true })).toMatch(/^\d{40}$/);
    const templated = JSON.parse(generateSecretValue({ SecretStringTemplate: '{"user":"ops"}', GenerateStringKey: 'password', ExcludePunctuation: true }));
    expect(templated).toEqual({ user: 'ops', password: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
  });

  test('a data folder keeps each value across restarts, readable by its owner only; :memory: keeps nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const first = keptSecretValues(dir)('KeySecret', { PasswordLength: 64, ExcludePunctuation: true });
    expect(keptSecretValues(dir)('KeySecret', { PasswordLength: 64, ExcludePunctuation: true })).toBe(first);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual({ KeySecret: first });
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(keptSecretValues(':memory:')('KeySecret', {})).not.toBe(keptSecretValues(':memory:')('KeySecret', {}));
  });
});

import { describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';

async function serve(token: string): Promise<{ code: number; stderr: string; stdout: string }> {
  let stdout = '';
  let stderr = '';
  const env = { CCMEM_SERVE_TOKEN: token, CLAUDE_CONFIG_DIR: '/nonexistent-ccmem-home' };
  const code = await runCli(['serve', '--port', '0'], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
  return { code, stderr, stdout };
}

describe('ccmem serve with a token from CCMEM_SERVE_TOKEN', () => {
  it('refuses a token weaker than a generated one, or one that cannot travel as a subprotocol, before serving anything', async () => {
    for (const token of ['short', 'x'.repeat(31), `${'a'.repeat(40)} space`, `${'a'.repeat(40)}/slash`, 'é'.repeat(40)]) {
      const { code, stderr, stdout } = await serve(token);
      expect(code).toBe(2);
      expect(stderr).toContain('CCMEM_SERVE_TOKEN must be 32 to 256 characters');
      expect(stderr).not.toContain(token);
      expect(stdout).toBe('');
    }
  });
});

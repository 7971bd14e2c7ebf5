import { createHash } from 'node:crypto';

/**
 * Fake secrets in the documented formats of every provider secretlint's recommended preset covers, and look-alikes
 * that must not be taken for secrets (documentation examples, placeholders, hashes, public material). None of
 * these is a real credential: every random part is derived from a seed with sha256.
 */
function seeded(seed: string, length: number, alphabet: string): string {
  let out = '';
  for (let round = 0; out.length < length; round++) {
    for (const byte of createHash('sha256').update(`${seed}:${round}`).digest()) {
      if (out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const HEX = '0123456789abcdef';
const BASE64 = `${ALNUM}+/`;
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

export interface CorpusEntry {
  /** The secretlint rule that should (or, for a look-alike, should not) report it. */
  readonly rule: string;
  /** A line as it would appear in a memory file. */
  readonly text: string;
  /** The secret itself, which must never be echoed anywhere. */
  readonly secret: string;
}

/** PEM armour around a body that starts as real DER or OpenSSH keys do (`MI…`, `MH…`, `b3BlbnNzaC1rZXktdjE…`). */
function pem(label: string, seed: string, magic: string): string {
  const raw = magic + seeded(seed, 8 * 64 - magic.length, BASE64);
  const body = raw.match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
}

function planted(rule: string, secret: string, template = (s: string) => `Remember this: ${s}`): CorpusEntry {
  return { rule, secret, text: template(secret) };
}

export const plantedSecrets: readonly CorpusEntry[] = [
  planted('aws', seeded('aws2', 40, BASE64), (s) => `aws_secret_access_key = ${s}`),
  planted('aws', seeded('aws3', 40, BASE64), (s) => `AWS_SECRET_ACCESS_KEY: "${s}"`),
  // An access key id alone names the account and the user; Claude Code's team memory guard refuses it too.
  planted('aws', `AKIA${seeded('akid', 16, UPPER_ALNUM)}`, (s) => `The deploy user's key id is ${s}.`),
  planted('aws', `ASIA${seeded('asid', 16, UPPER_ALNUM)}`, (s) => `aws_access_key_id=${s}`),
  planted(
    'gcp',
    pem('PRIVATE KEY', 'gcp', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'),
    (s) =>
      `{"type": "service_account", "project_id": "shop-prod", "private_key_id": "${seeded('gcpid', 40, HEX)}", "private_key": "${s.replace(/\n/g, '\\n')}", "client_email": "ci@shop-prod.iam.gserviceaccount.com"}`,
  ),
  planted('privatekey', pem('RSA PRIVATE KEY', 'rsa', 'MIIEpAIBAAKCAQEA'), (s) => `The old deploy key:\n${s}`),
  planted('privatekey', pem('PRIVATE KEY', 'pkcs8', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'), (s) => `The signing key:\n${s}`),
  planted('privatekey', pem('OPENSSH PRIVATE KEY', 'ssh', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ'), (s) => `CI key:\n${s}`),
  planted('privatekey', pem('EC PRIVATE KEY', 'ec', 'MHcCAQEEI'), (s) => `The EC key:\n${s}`),
  planted('basicauth', `deploy:${seeded('basic', 16, ALNUM)}`, (s) => `Staging is at https://${s}@staging.example.com/admin`),
  planted('github', `ghp_${seeded('ghp', 36, ALNUM)}`, (s) => `Use the token ${s} for the release script`),
  planted('github', `gho_${seeded('gho', 36, ALNUM)}`),
  planted('github', `ghs_${seeded('ghs', 36, ALNUM)}`),
  planted('github', `github_pat_${seeded('pat1', 22, ALNUM)}_${seeded('pat2', 59, ALNUM)}`),
  planted('slack', `xoxb-${seeded('sl1', 12, '0123456789')}-${seeded('sl2', 13, '0123456789')}-${seeded('sl3', 24, ALNUM)}`),
  planted(
    'slack',
    `https://hooks.slack.com/services/T${seeded('wh1', 8, UPPER_ALNUM)}/B${seeded('wh2', 8, UPPER_ALNUM)}/${seeded('wh3', 24, ALNUM)}`,
  ),
  planted('npm', `npm_${seeded('npm', 36, ALNUM)}`, (s) => `//registry.npmjs.org/:_authToken=${s}`),
  planted('openai', `sk-${seeded('oa1', 20, ALNUM)}T3BlbkFJ${seeded('oa2', 20, ALNUM)}`),
  planted('openai', `sk-proj-${seeded('oa3', 74, ALNUM)}T3BlbkFJ${seeded('oa4', 74, ALNUM)}`),
  planted('anthropic', `sk-ant-api03-${seeded('ant', 93, `${ALNUM}-_`)}AA`, (s) => `ANTHROPIC_API_KEY=${s}`),
  planted('sendgrid', `SG.${seeded('sg1', 22, `${ALNUM}-_`)}.${seeded('sg2', 43, `${ALNUM}-_`)}`),
  planted('shopify', `shpat_${seeded('shp', 32, HEX)}`),
  planted('shopify', `shpss_${seeded('shs', 32, HEX)}`),
  planted('linear', `lin_api_${seeded('lin', 40, ALNUM)}`),
  planted('database-connection-string', `postgres://app:${seeded('pg', 20, ALNUM)}@db.internal:5432/shop`),
  planted('database-connection-string', `mongodb+srv://admin:${seeded('mg', 20, ALNUM)}@cluster0.example.mongodb.net/prod`),
  planted('databricks', `dapi${seeded('dbx', 32, HEX)}`),
  planted('gitlab', `glpat-${seeded('glp', 20, `${ALNUM}-_`)}`),
  planted('huggingface', `hf_${seeded('hf', 34, LOWER + LOWER.toUpperCase())}`),
  planted('stripe', `sk_live_${seeded('stripe', 24, ALNUM)}`),
  planted('stripe', `rk_live_${seeded('stripe2', 24, ALNUM)}`),
  planted('groq', `gsk_${seeded('groq', 52, ALNUM)}`),
  planted('figma', `figd_${seeded('figma', 40, `${ALNUM}-_`)}`),
  planted('hashicorp-vault', `hvs.${seeded('vault', 95, `${ALNUM}_-`)}`),
  planted('tailscale', `tskey-auth-${seeded('ts1', 12, ALNUM)}-${seeded('ts2', 32, ALNUM)}`),
  planted('grafana', `glsa_${seeded('gf1', 32, ALNUM)}_${seeded('gf2', 8, HEX)}`),
  planted('notion', `ntn_${seeded('notion1', 11, '0123456789')}${seeded('notion2', 35, ALNUM)}`),
];

function lookAlike(rule: string, text: string): CorpusEntry {
  return { rule, text, secret: text };
}

/** Things that look like secrets and are not: they must not be reported. */
export const lookAlikes: readonly CorpusEntry[] = [
  lookAlike('aws', 'The AWS docs use AKIAIOSFODNN7EXAMPLE as an example key id.'),
  lookAlike('aws', 'Account id 123456789012 owns the bucket shop-assets.'),
  lookAlike('aws', 'arn:aws:iam::123456789012:role/deploy'),
  lookAlike('github', 'Tokens start with ghp_ followed by 36 characters.'),
  lookAlike('github', `The fix landed in commit ${seeded('sha', 40, HEX)}.`),
  lookAlike('github', 'See https://github.com/acme/shop/pull/4242'),
  lookAlike('privatekey', pem('PUBLIC KEY', 'pub', 'MIIBIjANBgkqhkiG9w0BAQEFAAOC')),
  lookAlike('privatekey', pem('CERTIFICATE', 'cert', 'MIIDdzCCAl+gAwIBAgIE')),
  lookAlike('privatekey', '-----BEGIN RSA PRIVATE KEY-----\n...your key here...\n-----END RSA PRIVATE KEY-----'),
  lookAlike('privatekey', 'Keys live in ~/.ssh/id_ed25519; never commit them.'),
  lookAlike('basicauth', 'Clone with https://git@github.com/acme/shop.git'),
  lookAlike('basicauth', 'The API answers at https://api.example.com:8443/v1'),
  lookAlike('database-connection-string', 'Local database: postgres://localhost:5432/shop_dev'),
  lookAlike('database-connection-string', 'Use DATABASE_URL from the environment, never a literal.'),
  lookAlike('openai', 'We use scikit-learn (sk-learn) for the ranking model.'),
  lookAlike('openai', 'Set OPENAI_API_KEY in .env.local; the value is in 1Password.'),
  lookAlike('anthropic', 'The key looks like sk-ant-... and goes in ANTHROPIC_API_KEY.'),
  lookAlike('npm', 'npm_config_cache points at /tmp/npm-cache in CI.'),
  lookAlike('slack', 'Post to the #deploys channel, not via xoxb tokens in code.'),
  lookAlike('stripe', 'Test mode keys start with sk_test_; live ones must never be pasted here.'),
  lookAlike('generic', `Session ${'0f8fad5b-d9cb-469f-a165-70867728950e'} started the refactor.`),
  lookAlike('generic', `Checksum: sha256:${seeded('sum', 64, HEX)}`),
  lookAlike('generic', `Base64 of the logo: ${seeded('logo', 80, BASE64)}==`),
  lookAlike('generic', 'password: <stored in the team vault>'),
  lookAlike('generic', 'The user prefers pnpm and never uses npm or yarn.'),
];

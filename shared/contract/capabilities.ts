/**
 * What only some shells may do. The desktop app has every capability; the web shell (`ccmem serve`) has none,
 * because anyone holding its token could use them. A request that needs a capability its shell lacks is refused.
 */
export const SHELL_CAPABILITIES = ['changeLlmEndpoint', 'revealSecrets'] as const;

export type ShellCapability = (typeof SHELL_CAPABILITIES)[number];

/** Why a shell without the capability refuses the request (the FORBIDDEN message). */
export const CAPABILITY_REFUSALS: Readonly<Record<ShellCapability, string>> = {
  changeLlmEndpoint:
    'The base URL decides where your API key is sent, so only the desktop app can change it; for `ccmem`, set ANTHROPIC_BASE_URL where it runs',
  revealSecrets: 'Secrets are never shown in the web shell; open the file in the desktop app or an editor on that machine to see them',
};

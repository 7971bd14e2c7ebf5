/** Where the model is called when neither the environment nor the settings name a proxy. */
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';

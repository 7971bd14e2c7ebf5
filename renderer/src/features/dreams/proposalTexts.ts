/** How the page names each kind of proposed change. */
export const KIND_TEXT = { add: 'new file', modify: 'changed', delete: 'deleted' } as const;

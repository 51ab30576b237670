/** What a memory's vector describes: its title and content (tags and kind are left to the lexical signal). */
export const embeddingText = (memory: { title: string; content: string | null }): string =>
  memory.content ? `${memory.title}\n\n${memory.content}` : memory.title;

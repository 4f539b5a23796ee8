// Failures of embedding, in Chinese for the admin; `transient` ones (time-outs, 429, 5xx, a
// network error) are worth another attempt later, the others (bad key, wrong URL, wrong width, a
// missing model folder) are not until someone changes the settings.
export class EmbeddingError extends Error {
  constructor(message: string, readonly code: string, readonly transient = false) {
    super(message);
  }
}

export const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

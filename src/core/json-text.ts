// JSON already serialized, sent as a response body as it is: lists joined from remembered per-item texts.

export class JsonText {
  constructor(readonly text: string) {}

  /** Anything that serializes it as a value (rather than sending it) gets the value back. */
  toJSON(): unknown {
    return JSON.parse(this.text)
  }
}

/** A JSON array of items that are each JSON text already. */
export const jsonArray = (items: readonly string[]) => new JsonText(`[${items.join(',')}]`)

  constructor(
    private readonly baseUrl: string,
    private readonly fetch: typeof globalThis.fetch = globalThis.fetch,
  ) {}

  /** GETs a path of the external system as JSON; refuses an answer that is not 2xx. */
  protected async getJson(path: string): Promise<unknown> {
    const response = await this.fetch(new URL(path, this.baseUrl));
    if (!response.ok) throw new Error(`$port$: ${path} answered ${response.status}`);
    return await response.json();
  }

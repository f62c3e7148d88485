
  /** The last deadline: TODO(domain) its effect (a command), then the instance ends. */
  $deadline$(
    _state: $name$State,
    _deadline: ProcessDeadline,
    process: ProcessContext<Deadlines>,
  ): Promise<ProcessCompletion> {
    return Promise.resolve(process.complete());
  }

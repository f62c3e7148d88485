
  /** TODO(domain): what $event$ changes (cancel a deadline, complete the instance). */
  $transition$(
    state: $name$State,
    _event: IntegrationEvent<$payload$>,
    _process: ProcessContext<Deadlines>,
  ): Promise<$name$State> {
    return Promise.resolve({ ...state, last: "$event$" });
  }

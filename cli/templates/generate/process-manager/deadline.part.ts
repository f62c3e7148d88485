
  /** TODO(domain): what happens when $deadline$ falls due (a command, a job of another context). */
  $deadline$(
    state: $name$State,
    _deadline: ProcessDeadline,
    _process: ProcessContext<Deadlines>,
  ): Promise<$name$State> {
    return Promise.resolve({ ...state, last: "$deadline$" });
  }

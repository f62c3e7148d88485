    ...(onOrm ? { transactions: onOrm.transactions } : {}),

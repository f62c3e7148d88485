    await onOwnDatabase(server!, async (sql) => {
      for (const [guarantee, check] of Object.entries(contract)) {
        await t.step(guarantee, () => check(new Postgres$port$(sql)));
      }
    });

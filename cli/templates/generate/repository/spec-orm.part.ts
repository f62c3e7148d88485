    await onOwnDatabase(server!, async (sql, url) => {
      const orm = openOrm(url, sql);
      try {
        for (const [guarantee, check] of Object.entries(contract)) {
          await t.step(guarantee, () => check(new $store$$port$(orm.db)));
        }
$tableCheck$      } finally {
        await orm.close();
      }
    });

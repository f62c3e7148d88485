        await t.step("its Drizzle table is the migrated one, column for column", async () => {
          const migrated = await sql`
            select column_name, data_type, is_nullable from information_schema.columns
            where table_schema = '$schema$' and table_name = '$table$'
            order by column_name`;
          const declared = getTableConfig($tableConst$).columns
            .map((column) => ({
              column_name: column.name,
              data_type: column.getSQLType(),
              is_nullable: column.notNull ? "NO" : "YES",
            }))
            .sort((a, b) => a.column_name < b.column_name ? -1 : 1);
          assert.deepEqual(migrated.map((row) => ({ ...row })), declared);
        });

      ...(orm ? { orm: orm.db } : {}),

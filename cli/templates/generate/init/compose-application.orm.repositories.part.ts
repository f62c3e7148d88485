          ...(orm ? ormRepositories.map((repository) => repository(orm)) : []),

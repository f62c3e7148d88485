      await orm?.close();

"""The sandbox for submitted (hostile) bot code: bubblewrap namespaces started as an
unprivileged user, no network, read-only system and bot files, a size-capped private tmpfs,
the referee reachable only through a Unix socket bound in. ``host`` says what this machine
offers; ``bwrap`` builds the command line."""

int host_only() { return 0; }

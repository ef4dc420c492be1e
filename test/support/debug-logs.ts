// Imported first by a test file that inspects log lines: every logger of that file logs everything.
process.env.LOG_LEVEL = 'DEBUG';

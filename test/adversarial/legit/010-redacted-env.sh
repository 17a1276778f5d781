# operation: read the project's .env: the variable names are visible (values redacted)
# known: FP3
# want: DATABASE_URL
cat .env

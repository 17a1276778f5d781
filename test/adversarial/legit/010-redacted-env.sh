# operation: read the project's .env: the variable names are visible (values redacted)
# want: DATABASE_URL
cat .env

# operation: read the project's .env: the variable names are visible (values redacted)
# fast: yes
# want: DATABASE_URL
cat .env

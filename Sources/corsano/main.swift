// The corsano executable: the command layer is the CorsanoCLI library (issue 23).
import CorsanoCLI

await CorsanoProgram.main()

// The corsano executable: the command layer is the CorsanoCLI library.
import CorsanoCLI

await CorsanoProgram.main()

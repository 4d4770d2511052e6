# Homebrew formula of pvlint (a template: the release workflow fills @VERSION@, @TAG@ and the
# @SHA256:target@ checksums from the release's SHA256SUMS with dist/fill.sh and attaches the
# result to the release; a tap (pvlint/homebrew-tap, Formula/pvlint.rb) serves it).
# It installs the released binaries, nothing is compiled: the static musl build on Linux.
class Pvlint < Formula
  desc "Lint Kubernetes manifests for storage mistakes that lose data or hang rollouts"
  homepage "https://github.com/pvlint/pvlint"
  version "@VERSION@"
  license "Apache-2.0"

  on_macos do
    on_arm do
      url "https://github.com/pvlint/pvlint/releases/download/@TAG@/pvlint-@TAG@-aarch64-apple-darwin.tar.gz"
      sha256 "@SHA256:aarch64-apple-darwin@"
    end
    on_intel do
      url "https://github.com/pvlint/pvlint/releases/download/@TAG@/pvlint-@TAG@-x86_64-apple-darwin.tar.gz"
      sha256 "@SHA256:x86_64-apple-darwin@"
    end
  end

  on_linux do
    on_arm do
      url "https://github.com/pvlint/pvlint/releases/download/@TAG@/pvlint-@TAG@-aarch64-unknown-linux-musl.tar.gz"
      sha256 "@SHA256:aarch64-unknown-linux-musl@"
    end
    on_intel do
      url "https://github.com/pvlint/pvlint/releases/download/@TAG@/pvlint-@TAG@-x86_64-unknown-linux-musl.tar.gz"
      sha256 "@SHA256:x86_64-unknown-linux-musl@"
    end
  end

  def install
    libexec.install "pvlint", "pvlint_wasm.wasm"
    # bin/pvlint is a link into the Cellar, and the module is looked for beside the path the
    # tool was started by: name it instead (a user's own PVLINT_WASM_MODULE still wins).
    (bin/"pvlint").write_env_script libexec/"pvlint",
      PVLINT_WASM_MODULE: "${PVLINT_WASM_MODULE:-#{libexec}/pvlint_wasm.wasm}"
    # `kubectl pvlint`: kubectl runs kubectl-pvlint from PATH.
    bin.install_symlink "pvlint" => "kubectl-pvlint"
  end

  test do
    (testpath/"pv.yaml").write <<~YAML
      apiVersion: v1
      kind: PersistentVolume
      metadata:
        name: data
      spec:
        capacity:
          storage: 1Gi
        accessModes: [ReadWriteOnce]
        persistentVolumeReclaimPolicy: Retain
        hostPath:
          path: /data
    YAML
    assert_match version.to_s, shell_output("#{bin}/pvlint --version")
    shell_output("#{bin}/pvlint lint --fail-on error #{testpath}/pv.yaml")
    shell_output("#{bin}/pvlint lint --engine wasm --fail-on error #{testpath}/pv.yaml")
    shell_output("#{bin}/kubectl-pvlint rules")
  end
end

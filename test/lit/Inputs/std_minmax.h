// std::min and std::max as libstdc++ writes them, in a header that counts
// as a system header (whose functions the walk does not step into): each
// returns a reference to one of its arguments.
#pragma clang system_header
namespace std {
template <class T> constexpr const T &max(const T &a, const T &b) {
  if (a < b)
    return b;
  return a;
}
template <class T> constexpr const T &min(const T &a, const T &b) {
  if (b < a)
    return b;
  return a;
}
} // namespace std
